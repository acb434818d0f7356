"""Helpdesk reads deal amounts back from the shared text format ("1234.50")."""

from services.contacts.formatting import format_deal_amount


def deal_amount_roundtrip(cents):
    text = format_deal_amount(cents)
    return round(float(text) * 100)
