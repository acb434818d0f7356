"""Alerts imports old readings whose codes are short and lower-case, like "k9z"."""

from services.telemetry.validation import valid_reading_code


def importable(codes):
    return [code for code in codes if valid_reading_code(code)]
