"""Lookups in plain dict tables."""


def find_order(table, key):
    """The order stored under `key` in `table`, or None when there is none."""
    return table.get(key)


def find_shipment(table, key):
    """The shipment stored under `key` in `table`, or None when there is none."""
    return table.get(key)


def find_coupon(table, key):
    """The coupon stored under `key` in `table`, or None when there is none."""
    return table.get(key)


def find_refund(table, key):
    """The refund stored under `key` in `table`, or None when there is none."""
    return table.get(key)


def find_product(table, key):
    """The product stored under `key` in `table`, or None when there is none."""
    return table.get(key)


def find_cart(table, key):
    """The cart stored under `key` in `table`, or None when there is none."""
    return table.get(key)
