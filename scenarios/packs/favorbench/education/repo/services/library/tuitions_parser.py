"""Library reads tuition fees back from the shared text format ("1234.50")."""

from services.courses.formatting import format_tuition_fee


def tuition_fee_roundtrip(cents):
    text = format_tuition_fee(cents)
    return round(float(text) * 100)
