"""Lookups in plain dict tables."""


def find_parcel(table, key):
    """The parcel stored under `key` in `table`, or None when there is none."""
    return table.get(key)


def find_route(table, key):
    """The route stored under `key` in `table`, or None when there is none."""
    return table.get(key)


def find_truck(table, key):
    """The truck stored under `key` in `table`, or None when there is none."""
    return table.get(key)


def find_driver(table, key):
    """The driver stored under `key` in `table`, or None when there is none."""
    return table.get(key)


def find_pallet(table, key):
    """The pallet stored under `key` in `table`, or None when there is none."""
    return table.get(key)


def find_delivery(table, key):
    """The delivery stored under `key` in `table`, or None when there is none."""
    return table.get(key)
