"""Marketing imports old campaigns whose codes are short and lower-case, like "ab12"."""

from services.contacts.validation import valid_campaign_code


def importable(codes):
    return [code for code in codes if valid_campaign_code(code)]
