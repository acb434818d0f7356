"""Loyalty imports old trips whose codes are short and lower-case, like "ab12"."""

from services.catalog.validation import valid_trip_code


def importable(codes):
    return [code for code in codes if valid_trip_code(code)]
