"""Metering reads reading intervals back from the shared text format ("125 s")."""

from services.telemetry.formatting import format_reading_interval


def reading_interval_roundtrip(seconds):
    text = format_reading_interval(seconds)
    return int(text.removesuffix(" s"))
