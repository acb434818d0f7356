from services.booking.shift_quote import shift_quote


def test_quotes_use_the_tier_rate():
    assert shift_quote(4, "express") == 28
    assert shift_quote(2, "standard") == 4
