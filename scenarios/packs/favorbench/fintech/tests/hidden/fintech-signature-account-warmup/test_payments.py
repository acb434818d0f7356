from services.payments.account_quote import account_quote


def test_quotes_use_the_tier_rate():
    assert account_quote(4, "express") == 48
    assert account_quote(2, "standard") == 10
