from services.booking.prescription_quote import prescription_quote


def test_quotes_use_the_tier_rate():
    assert prescription_quote(4, "express") == 32
    assert prescription_quote(2, "standard") == 6
