"""Tracking reads parcel weights back from the shared text format ("1500 g")."""

from services.fleet.formatting import format_parcel_weight


def parcel_weight_roundtrip(grams):
    text = format_parcel_weight(grams)
    return int(text.removesuffix(" g"))
