"""Firmware imports old alarms whose codes are short and lower-case, like "k9z"."""

from services.telemetry.validation import valid_alarm_code


def importable(codes):
    return [code for code in codes if valid_alarm_code(code)]
