"""Firmware checks whether devices exist before it acts on them."""

from services.telemetry.lookup import find_device


def device_exists(table, key):
    return find_device(table, key) is not None
