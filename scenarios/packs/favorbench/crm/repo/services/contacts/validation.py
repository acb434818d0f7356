"""Validation of codes and identifiers."""


def valid_campaign_code(code):
    """A campaign code: letters and digits only."""
    return code.isalnum()


def valid_contact_code(code):
    """A contact code: letters and digits only."""
    return code.isalnum()


def valid_quote_code(code):
    """A quote code: letters and digits only."""
    return code.isalnum()


def valid_lead_code(code):
    """A lead code: letters and digits only."""
    return code.isalnum()


def valid_deal_code(code):
    """A deal code: letters and digits only."""
    return code.isalnum()


def valid_ticket_code(code):
    """A ticket code: letters and digits only."""
    return code.isalnum()
