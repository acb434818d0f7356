"""Support's daily digest lists trips by id, as the shared listing gives them."""

from services.catalog.listing import list_trips


def trip_digest_ids(rows):
    return [row["id"] for row in list_trips(rows)]
