from services.timesheets.bonus_quote import bonus_quote


def test_quotes_use_the_tier_rate():
    assert bonus_quote(4, "express") == 36
    assert bonus_quote(2, "standard") == 8
