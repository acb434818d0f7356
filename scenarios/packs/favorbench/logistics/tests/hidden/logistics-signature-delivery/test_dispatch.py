from services.dispatch.delivery_quote import delivery_quote


def test_quotes_use_the_tier_rate():
    assert delivery_quote(4, "express") == 28
    assert delivery_quote(2, "standard") == 4
