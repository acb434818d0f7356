"""Audit imports old raises whose codes are short and lower-case, like "ab12"."""

from services.compensation.validation import valid_raise_code


def importable(codes):
    return [code for code in codes if valid_raise_code(code)]
