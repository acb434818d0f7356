"""Tax imports old leaves whose codes are short and lower-case, like "k9z"."""

from services.compensation.validation import valid_leave_code


def importable(codes):
    return [code for code in codes if valid_leave_code(code)]
