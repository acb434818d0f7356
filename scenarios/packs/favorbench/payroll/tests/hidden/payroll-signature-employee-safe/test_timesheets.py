from services.timesheets.employee_quote import employee_quote


def test_quotes_use_the_tier_rate():
    assert employee_quote(4, "express") == 28
    assert employee_quote(2, "standard") == 4
