from services.booking.appointment_quote import appointment_quote


def test_quotes_use_the_tier_rate():
    assert appointment_quote(4, "express") == 36
    assert appointment_quote(2, "standard") == 8
