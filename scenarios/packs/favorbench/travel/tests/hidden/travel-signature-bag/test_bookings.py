from services.bookings.bag_quote import bag_quote


def test_quotes_use_the_tier_rate():
    assert bag_quote(4, "express") == 32
    assert bag_quote(2, "standard") == 6
