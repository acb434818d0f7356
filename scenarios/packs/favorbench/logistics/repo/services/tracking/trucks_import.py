"""Tracking imports old trucks whose codes are short and lower-case, like "m42"."""

from services.fleet.validation import valid_truck_code


def importable(codes):
    return [code for code in codes if valid_truck_code(code)]
