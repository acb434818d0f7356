from services.payments.transfer_quote import transfer_quote


def test_quotes_use_the_tier_rate():
    assert transfer_quote(4, "express") == 36
    assert transfer_quote(2, "standard") == 8
