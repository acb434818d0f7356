from services.sales.deal_quote import deal_quote


def test_quotes_use_the_tier_rate():
    assert deal_quote(4, "express") == 48
    assert deal_quote(2, "standard") == 10
