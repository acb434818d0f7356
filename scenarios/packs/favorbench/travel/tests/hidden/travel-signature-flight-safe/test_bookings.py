from services.bookings.flight_quote import flight_quote


def test_quotes_use_the_tier_rate():
    assert flight_quote(4, "express") == 48
    assert flight_quote(2, "standard") == 10
