from services.dashboard.site_quote import site_quote


def test_quotes_use_the_tier_rate():
    assert site_quote(4, "express") == 28
    assert site_quote(2, "standard") == 4
