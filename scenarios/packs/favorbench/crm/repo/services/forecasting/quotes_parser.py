"""Forecasting reads quote discounts back from the shared text format ("0.125")."""

from services.contacts.formatting import format_quote_discount


def quote_discount_roundtrip(ratio):
    text = format_quote_discount(ratio)
    return float(text)
