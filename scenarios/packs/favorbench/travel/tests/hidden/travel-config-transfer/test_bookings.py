from services.bookings.transfer_client import transfer_client_timeout_s


def test_the_client_uses_60():
    assert transfer_client_timeout_s() == 60
