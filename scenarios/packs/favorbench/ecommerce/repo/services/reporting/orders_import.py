"""Reporting imports old orders whose codes are short and lower-case, like "k9z"."""

from services.platform.validation import valid_order_code


def importable(codes):
    return [code for code in codes if valid_order_code(code)]
