"""Loyalty reads flight distances back from the shared text format ("2500 m")."""

from services.catalog.formatting import format_flight_distance


def flight_distance_roundtrip(meters):
    text = format_flight_distance(meters)
    return int(text.removesuffix(" m"))
