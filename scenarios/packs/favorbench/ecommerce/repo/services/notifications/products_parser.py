"""Notifications reads product weights back from the shared text format ("1500 g")."""

from services.platform.formatting import format_product_weight


def product_weight_roundtrip(grams):
    text = format_product_weight(grams)
    return int(text.removesuffix(" g"))
