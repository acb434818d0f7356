"""Loyalty imports old flights whose codes are short and lower-case, like "x7"."""

from services.catalog.validation import valid_flight_code


def importable(codes):
    return [code for code in codes if valid_flight_code(code)]
