from services.checkout.order_quote import order_quote


def test_quotes_use_the_tier_rate():
    assert order_quote(4, "express") == 36
    assert order_quote(2, "standard") == 8
