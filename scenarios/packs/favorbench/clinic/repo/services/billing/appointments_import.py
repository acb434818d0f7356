"""Billing imports old appointments whose codes are short and lower-case, like "x7"."""

from services.scheduling.validation import valid_appointment_code


def importable(codes):
    return [code for code in codes if valid_appointment_code(code)]
