"""Support imports old transfers whose codes are short and lower-case, like "m42"."""

from services.catalog.validation import valid_transfer_code


def importable(codes):
    return [code for code in codes if valid_transfer_code(code)]
