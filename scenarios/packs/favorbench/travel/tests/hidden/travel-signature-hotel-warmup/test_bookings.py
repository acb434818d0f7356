from services.bookings.hotel_quote import hotel_quote


def test_quotes_use_the_tier_rate():
    assert hotel_quote(4, "express") == 32
    assert hotel_quote(2, "standard") == 6
