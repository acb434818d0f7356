"""Tracking imports old drivers whose codes are short and lower-case, like "x7"."""

from services.fleet.validation import valid_driver_code


def importable(codes):
    return [code for code in codes if valid_driver_code(code)]
