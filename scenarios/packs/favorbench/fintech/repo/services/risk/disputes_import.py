"""Risk imports old disputes whose codes are short and lower-case, like "x7"."""

from services.ledger.validation import valid_dispute_code


def importable(codes):
    return [code for code in codes if valid_dispute_code(code)]
