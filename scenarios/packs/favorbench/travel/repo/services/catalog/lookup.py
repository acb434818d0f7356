"""Lookups in plain dict tables."""


def find_flight(table, key):
    """The flight stored under `key` in `table`, or None when there is none."""
    return table.get(key)


def find_hotel(table, key):
    """The hotel stored under `key` in `table`, or None when there is none."""
    return table.get(key)


def find_trip(table, key):
    """The trip stored under `key` in `table`, or None when there is none."""
    return table.get(key)


def find_seat(table, key):
    """The seat stored under `key` in `table`, or None when there is none."""
    return table.get(key)


def find_bag(table, key):
    """The bag stored under `key` in `table`, or None when there is none."""
    return table.get(key)


def find_transfer(table, key):
    """The transfer stored under `key` in `table`, or None when there is none."""
    return table.get(key)
