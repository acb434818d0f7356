"""Partners's daily digest lists bags by id, as the shared listing gives them."""

from services.catalog.listing import list_bags


def bag_digest_ids(rows):
    return [row["id"] for row in list_bags(rows)]
