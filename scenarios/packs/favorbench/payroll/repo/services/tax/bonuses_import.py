"""Tax imports old bonuses whose codes are short and lower-case, like "ab12"."""

from services.compensation.validation import valid_bonus_code


def importable(codes):
    return [code for code in codes if valid_bonus_code(code)]
