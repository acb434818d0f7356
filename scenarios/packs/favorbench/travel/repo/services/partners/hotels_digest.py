"""Partners's daily digest lists hotels by id, as the shared listing gives them."""

from services.catalog.listing import list_hotels


def hotel_digest_ids(rows):
    return [row["id"] for row in list_hotels(rows)]
