from services.timesheets.expense_quote import expense_quote


def test_quotes_use_the_tier_rate():
    assert expense_quote(4, "express") == 48
    assert expense_quote(2, "standard") == 10
