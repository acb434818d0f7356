from services.dashboard.device_client import device_client_timeout_s


def test_the_client_uses_60():
    assert device_client_timeout_s() == 60
