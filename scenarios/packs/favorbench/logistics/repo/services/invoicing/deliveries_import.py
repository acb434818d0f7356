"""Invoicing imports old deliveries whose codes are short and lower-case, like "x7"."""

from services.fleet.validation import valid_delivery_code


def importable(codes):
    return [code for code in codes if valid_delivery_code(code)]
