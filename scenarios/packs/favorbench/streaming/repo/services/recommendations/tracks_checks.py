"""Recommendations checks whether tracks exist before it acts on them."""

from services.catalog.lookup import find_track


def track_exists(table, key):
    return find_track(table, key) is not None
