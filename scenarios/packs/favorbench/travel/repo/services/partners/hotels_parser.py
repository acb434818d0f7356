"""Partners reads hotel rates back from the shared text format ("1234.50")."""

from services.catalog.formatting import format_hotel_rate


def hotel_rate_roundtrip(cents):
    text = format_hotel_rate(cents)
    return round(float(text) * 100)
