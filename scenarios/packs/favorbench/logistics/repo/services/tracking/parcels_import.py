"""Tracking imports old parcels whose codes are short and lower-case, like "ab12"."""

from services.fleet.validation import valid_parcel_code


def importable(codes):
    return [code for code in codes if valid_parcel_code(code)]
