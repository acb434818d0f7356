"""Metering checks whether readings exist before it acts on them."""

from services.telemetry.lookup import find_reading


def reading_exists(table, key):
    return find_reading(table, key) is not None
