from services.timesheets.raise_quote import raise_quote


def test_quotes_use_the_tier_rate():
    assert raise_quote(4, "express") == 28
    assert raise_quote(2, "standard") == 4
