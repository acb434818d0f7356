from services.bookings.bag_client import bag_client_timeout_s


def test_the_client_uses_60():
    assert bag_client_timeout_s() == 60
