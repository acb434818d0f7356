"""Notifications imports old carts whose codes are short and lower-case, like "ab12"."""

from services.platform.validation import valid_cart_code


def importable(codes):
    return [code for code in codes if valid_cart_code(code)]
