"""Alerts imports old gateways whose codes are short and lower-case, like "x7"."""

from services.telemetry.validation import valid_gateway_code


def importable(codes):
    return [code for code in codes if valid_gateway_code(code)]
