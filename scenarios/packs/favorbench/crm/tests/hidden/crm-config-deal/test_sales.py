from services.sales.deal_client import deal_client_timeout_s


def test_the_client_uses_60():
    assert deal_client_timeout_s() == 60
