"""Loyalty checks whether flights exist before it acts on them."""

from services.catalog.lookup import find_flight


def flight_exists(table, key):
    return find_flight(table, key) is not None
