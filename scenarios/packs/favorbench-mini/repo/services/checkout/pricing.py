"""Prices shown to customers in their currency."""

from services.platform.money import RATES, convert

SUPPORTED = ("EUR", "USD")


def price_in(cents, currency):
    """A EUR price in `currency`, in cents."""
    if currency not in SUPPORTED:
        raise ValueError(f"unsupported currency {currency}")
    return convert(cents, RATES[currency])
