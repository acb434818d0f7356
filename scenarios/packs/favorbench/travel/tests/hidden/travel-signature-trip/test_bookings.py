from services.bookings.trip_quote import trip_quote


def test_quotes_use_the_tier_rate():
    assert trip_quote(4, "express") == 28
    assert trip_quote(2, "standard") == 4
