from services.enrolment.assignment_quote import assignment_quote


def test_quotes_use_the_tier_rate():
    assert assignment_quote(4, "express") == 28
    assert assignment_quote(2, "standard") == 4
