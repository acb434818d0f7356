from services.payments.loan_quote import loan_quote


def test_quotes_use_the_tier_rate():
    assert loan_quote(4, "express") == 32
    assert loan_quote(2, "standard") == 6
