from services.checkout.pricing import display_price


def test_display_price_in_usd():
    got = display_price(1000, "USD")
    assert got == "11.00 USD", f"expected '11.00 USD', got {got!r}"


def test_display_price_in_eur():
    got = display_price(1250, "EUR")
    assert got == "12.50 EUR", f"expected '12.50 EUR', got {got!r}"
