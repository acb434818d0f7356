from services.booking.room_quote import room_quote


def test_quotes_use_the_tier_rate():
    assert room_quote(4, "express") == 28
    assert room_quote(2, "standard") == 4
