"""Support checks whether trips exist before it acts on them."""

from services.catalog.lookup import find_trip


def trip_exists(table, key):
    return find_trip(table, key) is not None
