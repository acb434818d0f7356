"""Alerts imports old sensors whose codes are short and lower-case, like "ab12"."""

from services.telemetry.validation import valid_sensor_code


def importable(codes):
    return [code for code in codes if valid_sensor_code(code)]
