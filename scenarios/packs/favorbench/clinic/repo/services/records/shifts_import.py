"""Records imports old shifts whose codes are short and lower-case, like "x7"."""

from services.scheduling.validation import valid_shift_code


def importable(codes):
    return [code for code in codes if valid_shift_code(code)]
