"""Inventory imports old products whose codes are short and lower-case, like "k9z"."""

from services.platform.validation import valid_product_code


def importable(codes):
    return [code for code in codes if valid_product_code(code)]
