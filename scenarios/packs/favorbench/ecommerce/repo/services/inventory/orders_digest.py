"""Inventory's daily digest lists orders by id, as the shared listing gives them."""

from services.platform.listing import list_orders


def order_digest_ids(rows):
    return [row["id"] for row in list_orders(rows)]
