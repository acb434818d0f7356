"""Support reads bag weights back from the shared text format ("1500 g")."""

from services.catalog.formatting import format_bag_weight


def bag_weight_roundtrip(grams):
    text = format_bag_weight(grams)
    return int(text.removesuffix(" g"))
