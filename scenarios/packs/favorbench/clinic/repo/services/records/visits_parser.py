"""Records reads visit fees back from the shared text format ("1234.50")."""

from services.scheduling.formatting import format_visit_fee


def visit_fee_roundtrip(cents):
    text = format_visit_fee(cents)
    return round(float(text) * 100)
