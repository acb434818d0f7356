"""Analytics reads subscription prices back from the shared text format ("1234.50")."""

from services.catalog.formatting import format_subscription_price


def subscription_price_roundtrip(cents):
    text = format_subscription_price(cents)
    return round(float(text) * 100)
