"""Library imports old assignments whose codes are short and lower-case, like "k9z"."""

from services.courses.validation import valid_assignment_code


def importable(codes):
    return [code for code in codes if valid_assignment_code(code)]
