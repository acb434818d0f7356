"""Reporting checks whether orders exist before it acts on them."""

from services.platform.lookup import find_order


def order_exists(table, key):
    return find_order(table, key) is not None
