"""Alerts reads sensor ranges back from the shared text format ("2500 m")."""

from services.telemetry.formatting import format_sensor_range


def sensor_range_roundtrip(meters):
    text = format_sensor_range(meters)
    return int(text.removesuffix(" m"))
