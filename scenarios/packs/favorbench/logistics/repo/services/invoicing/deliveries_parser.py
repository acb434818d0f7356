"""Invoicing reads delivery distances back from the shared text format ("2500 m")."""

from services.fleet.formatting import format_delivery_distance


def delivery_distance_roundtrip(meters):
    text = format_delivery_distance(meters)
    return int(text.removesuffix(" m"))
