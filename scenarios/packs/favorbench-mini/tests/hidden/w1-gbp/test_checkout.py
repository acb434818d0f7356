from services.checkout.pricing import price_in


def test_price_in_gbp():
    got = price_in(1000, "GBP")
    assert got == 850, f"expected 850 pence, got {got!r}"


def test_other_currencies_unchanged():
    assert price_in(1000, "USD") == 1100
