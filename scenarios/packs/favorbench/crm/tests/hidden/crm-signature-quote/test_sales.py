from services.sales.quote_quote import quote_quote


def test_quotes_use_the_tier_rate():
    assert quote_quote(4, "express") == 48
    assert quote_quote(2, "standard") == 10
