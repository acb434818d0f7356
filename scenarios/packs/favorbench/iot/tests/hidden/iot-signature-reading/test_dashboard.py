from services.dashboard.reading_quote import reading_quote


def test_quotes_use_the_tier_rate():
    assert reading_quote(4, "express") == 28
    assert reading_quote(2, "standard") == 4
