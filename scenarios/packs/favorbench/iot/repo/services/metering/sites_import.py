"""Metering imports old sites whose codes are short and lower-case, like "x7"."""

from services.telemetry.validation import valid_site_code


def importable(codes):
    return [code for code in codes if valid_site_code(code)]
