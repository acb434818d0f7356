"""Audit reads raise rates back from the shared text format ("0.125")."""

from services.compensation.formatting import format_raise_rate


def raise_rate_roundtrip(ratio):
    text = format_raise_rate(ratio)
    return float(text)
