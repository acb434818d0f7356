"""Warehouse imports old pallets whose codes are short and lower-case, like "ab12"."""

from services.fleet.validation import valid_pallet_code


def importable(codes):
    return [code for code in codes if valid_pallet_code(code)]
