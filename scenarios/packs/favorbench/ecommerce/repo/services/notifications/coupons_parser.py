"""Notifications reads coupon discounts back from the shared text format ("0.125")."""

from services.platform.formatting import format_coupon_discount


def coupon_discount_roundtrip(ratio):
    text = format_coupon_discount(ratio)
    return float(text)
