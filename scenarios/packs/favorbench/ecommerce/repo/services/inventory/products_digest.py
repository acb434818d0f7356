"""Inventory's daily digest lists products by id, as the shared listing gives them."""

from services.platform.listing import list_products


def product_digest_ids(rows):
    return [row["id"] for row in list_products(rows)]
