"""Helpdesk imports old contacts whose codes are short and lower-case, like "m42"."""

from services.contacts.validation import valid_contact_code


def importable(codes):
    return [code for code in codes if valid_contact_code(code)]
