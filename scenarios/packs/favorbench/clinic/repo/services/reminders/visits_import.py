"""Reminders imports old visits whose codes are short and lower-case, like "ab12"."""

from services.scheduling.validation import valid_visit_code


def importable(codes):
    return [code for code in codes if valid_visit_code(code)]
