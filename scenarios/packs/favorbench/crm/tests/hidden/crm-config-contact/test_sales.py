from services.sales.contact_client import contact_client_timeout_s


def test_the_client_uses_60():
    assert contact_client_timeout_s() == 60
