"""Audit reads expense amounts back from the shared text format ("1234.50")."""

from services.compensation.formatting import format_expense_amount


def expense_amount_roundtrip(cents):
    text = format_expense_amount(cents)
    return round(float(text) * 100)
