"""Inventory reads shipment weights back from the shared text format ("1500 g")."""

from services.platform.formatting import format_shipment_weight


def shipment_weight_roundtrip(grams):
    text = format_shipment_weight(grams)
    return int(text.removesuffix(" g"))
