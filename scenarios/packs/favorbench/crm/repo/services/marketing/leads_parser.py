"""Marketing reads lead values back from the shared text format ("1234.50")."""

from services.contacts.formatting import format_lead_value


def lead_value_roundtrip(cents):
    text = format_lead_value(cents)
    return round(float(text) * 100)
