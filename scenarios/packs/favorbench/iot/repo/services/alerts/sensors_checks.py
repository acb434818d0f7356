"""Alerts checks whether sensors exist before it acts on them."""

from services.telemetry.lookup import find_sensor


def sensor_exists(table, key):
    return find_sensor(table, key) is not None
