from services.sales.campaign_quote import campaign_quote


def test_quotes_use_the_tier_rate():
    assert campaign_quote(4, "express") == 28
    assert campaign_quote(2, "standard") == 4
