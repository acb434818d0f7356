"""Forecasting imports old quotes whose codes are short and lower-case, like "k9z"."""

from services.contacts.validation import valid_quote_code


def importable(codes):
    return [code for code in codes if valid_quote_code(code)]
