from services.booking.referral_quote import referral_quote


def test_quotes_use_the_tier_rate():
    assert referral_quote(4, "express") == 48
    assert referral_quote(2, "standard") == 10
