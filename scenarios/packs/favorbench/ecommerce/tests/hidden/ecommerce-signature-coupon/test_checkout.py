from services.checkout.coupon_quote import coupon_quote


def test_quotes_use_the_tier_rate():
    assert coupon_quote(4, "express") == 48
    assert coupon_quote(2, "standard") == 10
