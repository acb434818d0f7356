from services.checkout.cart_quote import cart_quote


def test_quotes_use_the_tier_rate():
    assert cart_quote(4, "express") == 36
    assert cart_quote(2, "standard") == 8
