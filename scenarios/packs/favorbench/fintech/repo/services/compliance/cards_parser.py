"""Compliance reads card limits back from the shared text format ("1234.50")."""

from services.ledger.formatting import format_card_limit


def card_limit_roundtrip(cents):
    text = format_card_limit(cents)
    return round(float(text) * 100)
