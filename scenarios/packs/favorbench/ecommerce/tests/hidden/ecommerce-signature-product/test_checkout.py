from services.checkout.product_quote import product_quote


def test_quotes_use_the_tier_rate():
    assert product_quote(4, "express") == 48
    assert product_quote(2, "standard") == 10
