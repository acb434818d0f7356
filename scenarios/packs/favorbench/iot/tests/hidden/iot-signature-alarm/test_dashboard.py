from services.dashboard.alarm_quote import alarm_quote


def test_quotes_use_the_tier_rate():
    assert alarm_quote(4, "express") == 48
    assert alarm_quote(2, "standard") == 10
