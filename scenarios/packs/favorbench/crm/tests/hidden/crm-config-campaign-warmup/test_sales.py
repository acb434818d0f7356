from services.sales.campaign_client import campaign_client_timeout_s


def test_the_client_uses_60():
    assert campaign_client_timeout_s() == 60
