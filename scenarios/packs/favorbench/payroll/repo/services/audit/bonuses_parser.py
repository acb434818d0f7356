"""Audit reads bonus amounts back from the shared text format ("1234.50")."""

from services.compensation.formatting import format_bonus_amount


def bonus_amount_roundtrip(cents):
    text = format_bonus_amount(cents)
    return round(float(text) * 100)
