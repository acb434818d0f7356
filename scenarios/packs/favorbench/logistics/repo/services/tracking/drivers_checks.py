"""Tracking checks whether drivers exist before it acts on them."""

from services.fleet.lookup import find_driver


def driver_exists(table, key):
    return find_driver(table, key) is not None
