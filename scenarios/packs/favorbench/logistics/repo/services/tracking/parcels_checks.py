"""Tracking checks whether parcels exist before it acts on them."""

from services.fleet.lookup import find_parcel


def parcel_exists(table, key):
    return find_parcel(table, key) is not None
