"""Reporting imports old refunds whose codes are short and lower-case, like "ab12"."""

from services.platform.validation import valid_refund_code


def importable(codes):
    return [code for code in codes if valid_refund_code(code)]
