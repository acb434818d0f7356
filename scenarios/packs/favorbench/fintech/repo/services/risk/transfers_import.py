"""Risk imports old transfers whose codes are short and lower-case, like "k9z"."""

from services.ledger.validation import valid_transfer_code


def importable(codes):
    return [code for code in codes if valid_transfer_code(code)]
