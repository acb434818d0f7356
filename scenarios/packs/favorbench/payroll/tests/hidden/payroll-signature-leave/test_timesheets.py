from services.timesheets.leave_quote import leave_quote


def test_quotes_use_the_tier_rate():
    assert leave_quote(4, "express") == 48
    assert leave_quote(2, "standard") == 10
