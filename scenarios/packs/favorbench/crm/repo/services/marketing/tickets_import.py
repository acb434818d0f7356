"""Marketing imports old tickets whose codes are short and lower-case, like "k9z"."""

from services.contacts.validation import valid_ticket_code


def importable(codes):
    return [code for code in codes if valid_ticket_code(code)]
