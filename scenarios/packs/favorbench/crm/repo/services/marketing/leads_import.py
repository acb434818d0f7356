"""Marketing imports old leads whose codes are short and lower-case, like "k9z"."""

from services.contacts.validation import valid_lead_code


def importable(codes):
    return [code for code in codes if valid_lead_code(code)]
