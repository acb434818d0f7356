"""Billing imports old prescriptions whose codes are short and lower-case, like "k9z"."""

from services.scheduling.validation import valid_prescription_code


def importable(codes):
    return [code for code in codes if valid_prescription_code(code)]
