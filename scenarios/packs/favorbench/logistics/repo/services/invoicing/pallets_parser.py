"""Invoicing reads pallet weights back from the shared text format ("1500 g")."""

from services.fleet.formatting import format_pallet_weight


def pallet_weight_roundtrip(grams):
    text = format_pallet_weight(grams)
    return int(text.removesuffix(" g"))
