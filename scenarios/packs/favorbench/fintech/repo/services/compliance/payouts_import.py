"""Compliance imports old payouts whose codes are short and lower-case, like "ab12"."""

from services.ledger.validation import valid_payout_code


def importable(codes):
    return [code for code in codes if valid_payout_code(code)]
