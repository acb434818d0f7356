"""Reporting reads order totals back from the shared text format ("1234.50")."""

from services.platform.formatting import format_order_total


def order_total_roundtrip(cents):
    text = format_order_total(cents)
    return round(float(text) * 100)
