from services.booking.shift_client import shift_client_timeout_s


def test_the_client_uses_60():
    assert shift_client_timeout_s() == 60
