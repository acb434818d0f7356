from services.payments.payout_quote import payout_quote


def test_quotes_use_the_tier_rate():
    assert payout_quote(4, "express") == 48
    assert payout_quote(2, "standard") == 10
