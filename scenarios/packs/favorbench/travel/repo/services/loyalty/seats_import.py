"""Loyalty imports old seats whose codes are short and lower-case, like "ab12"."""

from services.catalog.validation import valid_seat_code


def importable(codes):
    return [code for code in codes if valid_seat_code(code)]
