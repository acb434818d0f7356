from services.payments.dispute_quote import dispute_quote


def test_quotes_use_the_tier_rate():
    assert dispute_quote(4, "express") == 36
    assert dispute_quote(2, "standard") == 8
