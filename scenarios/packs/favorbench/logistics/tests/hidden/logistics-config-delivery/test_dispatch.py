from services.dispatch.delivery_client import delivery_client_timeout_s


def test_the_client_uses_60():
    assert delivery_client_timeout_s() == 60
