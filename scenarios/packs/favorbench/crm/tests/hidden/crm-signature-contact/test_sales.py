from services.sales.contact_quote import contact_quote


def test_quotes_use_the_tier_rate():
    assert contact_quote(4, "express") == 32
    assert contact_quote(2, "standard") == 6
