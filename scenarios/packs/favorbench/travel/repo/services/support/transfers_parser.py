"""Support reads transfer distances back from the shared text format ("2500 m")."""

from services.catalog.formatting import format_transfer_distance


def transfer_distance_roundtrip(meters):
    text = format_transfer_distance(meters)
    return int(text.removesuffix(" m"))
