"""Risk reads transfer amounts back from the shared text format ("1234.50")."""

from services.ledger.formatting import format_transfer_amount


def transfer_amount_roundtrip(cents):
    text = format_transfer_amount(cents)
    return round(float(text) * 100)
