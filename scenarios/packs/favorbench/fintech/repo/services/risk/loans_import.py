"""Risk imports old loans whose codes are short and lower-case, like "ab12"."""

from services.ledger.validation import valid_loan_code


def importable(codes):
    return [code for code in codes if valid_loan_code(code)]
