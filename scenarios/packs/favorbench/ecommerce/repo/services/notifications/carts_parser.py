"""Notifications reads cart values back from the shared text format ("1234.50")."""

from services.platform.formatting import format_cart_value


def cart_value_roundtrip(cents):
    text = format_cart_value(cents)
    return round(float(text) * 100)
