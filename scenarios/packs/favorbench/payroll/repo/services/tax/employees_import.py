"""Tax imports old employees whose codes are short and lower-case, like "x7"."""

from services.compensation.validation import valid_employee_code


def importable(codes):
    return [code for code in codes if valid_employee_code(code)]
