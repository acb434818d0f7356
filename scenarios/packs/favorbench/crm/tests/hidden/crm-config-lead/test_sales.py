from services.sales.lead_client import lead_client_retries


def test_the_client_uses_5():
    assert lead_client_retries() == 5
