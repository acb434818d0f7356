"""Loyalty checks whether seats exist before it acts on them."""

from services.catalog.lookup import find_seat


def seat_exists(table, key):
    return find_seat(table, key) is not None
