"""Compliance reads loan rates back from the shared text format ("0.125")."""

from services.ledger.formatting import format_loan_rate


def loan_rate_roundtrip(ratio):
    text = format_loan_rate(ratio)
    return float(text)
