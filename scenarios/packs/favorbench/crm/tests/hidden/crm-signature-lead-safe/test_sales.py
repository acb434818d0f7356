from services.sales.lead_quote import lead_quote


def test_quotes_use_the_tier_rate():
    assert lead_quote(4, "express") == 32
    assert lead_quote(2, "standard") == 6
