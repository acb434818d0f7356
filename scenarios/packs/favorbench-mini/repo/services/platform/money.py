"""Amounts are integer cents everywhere. RATES are exchange rates per 1 EUR."""

RATES = {"EUR": 1.0, "USD": 1.1}


def convert(cents, rate):
    """Cents multiplied by an exchange rate, rounded to whole cents."""
    return round(cents * rate)


def format_amount(cents, currency):
    """1250, "EUR" -> "12.50 EUR"."""
    return f"{cents / 100:.2f} {currency}"
