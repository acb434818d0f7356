"""Benefits imports old expenses whose codes are short and lower-case, like "x7"."""

from services.compensation.validation import valid_expense_code


def importable(codes):
    return [code for code in codes if valid_expense_code(code)]
