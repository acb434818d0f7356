"""Invoicing reads truck loads back from the shared text format ("1500 g")."""

from services.fleet.formatting import format_truck_load


def truck_load_roundtrip(grams):
    text = format_truck_load(grams)
    return int(text.removesuffix(" g"))
