"""Reporting imports old coupons whose codes are short and lower-case, like "x7"."""

from services.platform.validation import valid_coupon_code


def importable(codes):
    return [code for code in codes if valid_coupon_code(code)]
