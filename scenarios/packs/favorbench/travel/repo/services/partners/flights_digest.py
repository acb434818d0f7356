"""Partners's daily digest lists flights by id, as the shared listing gives them."""

from services.catalog.listing import list_flights


def flight_digest_ids(rows):
    return [row["id"] for row in list_flights(rows)]
