"""Formatting values as text."""


def format_quote_discount(ratio):
    """The discount as text, e.g. 0.125."""
    return f"{ratio:.3f}"


def format_lead_value(cents):
    """The value as text, e.g. 1234.50."""
    return f"{cents / 100:.2f}"


def format_deal_amount(cents):
    """The amount as text, e.g. 1234.50."""
    return f"{cents / 100:.2f}"


def format_ticket_age(seconds):
    """The age as text, e.g. 125 s."""
    return f"{seconds} s"


def format_campaign_budget(cents):
    """The budget as text, e.g. 1234.50."""
    return f"{cents / 100:.2f}"


def format_contact_response(seconds):
    """The response as text, e.g. 125 s."""
    return f"{seconds} s"
