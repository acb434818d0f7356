from services.bookings.seat_quote import seat_quote


def test_quotes_use_the_tier_rate():
    assert seat_quote(4, "express") == 28
    assert seat_quote(2, "standard") == 4
