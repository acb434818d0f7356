from services.bookings.seat_client import seat_client_timeout_s


def test_the_client_uses_60():
    assert seat_client_timeout_s() == 60
