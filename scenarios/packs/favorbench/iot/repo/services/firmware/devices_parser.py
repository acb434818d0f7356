"""Firmware reads device batterys back from the shared text format ("0.125")."""

from services.telemetry.formatting import format_device_battery


def device_battery_roundtrip(ratio):
    text = format_device_battery(ratio)
    return float(text)
