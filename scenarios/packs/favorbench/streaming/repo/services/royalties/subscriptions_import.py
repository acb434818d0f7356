"""Royalties imports old subscriptions whose codes are short and lower-case, like "ab12"."""

from services.catalog.validation import valid_subscription_code


def importable(codes):
    return [code for code in codes if valid_subscription_code(code)]
