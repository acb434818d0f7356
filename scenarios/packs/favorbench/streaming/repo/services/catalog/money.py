"""Amounts are integer cents everywhere."""


def format_amount(cents, currency):
    """1250, "EUR" -> "12.50 EUR"."""
    return f"{cents / 100:.2f} {currency}"
