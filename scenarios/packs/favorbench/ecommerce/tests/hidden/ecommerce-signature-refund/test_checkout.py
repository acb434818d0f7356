from services.checkout.refund_quote import refund_quote


def test_quotes_use_the_tier_rate():
    assert refund_quote(4, "express") == 32
    assert refund_quote(2, "standard") == 6
