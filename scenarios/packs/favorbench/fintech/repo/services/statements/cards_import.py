"""Statements imports old cards whose codes are short and lower-case, like "x7"."""

from services.ledger.validation import valid_card_code


def importable(codes):
    return [code for code in codes if valid_card_code(code)]
