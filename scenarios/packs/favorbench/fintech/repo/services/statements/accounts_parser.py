"""Statements reads account balances back from the shared text format ("1234.50")."""

from services.ledger.formatting import format_account_balance


def account_balance_roundtrip(cents):
    text = format_account_balance(cents)
    return round(float(text) * 100)
