"""Compliance reads payout amounts back from the shared text format ("1234.50")."""

from services.ledger.formatting import format_payout_amount


def payout_amount_roundtrip(cents):
    text = format_payout_amount(cents)
    return round(float(text) * 100)
