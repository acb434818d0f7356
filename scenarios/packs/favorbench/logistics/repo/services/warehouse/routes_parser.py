"""Warehouse reads route lengths back from the shared text format ("2500 m")."""

from services.fleet.formatting import format_route_length


def route_length_roundtrip(meters):
    text = format_route_length(meters)
    return int(text.removesuffix(" m"))
