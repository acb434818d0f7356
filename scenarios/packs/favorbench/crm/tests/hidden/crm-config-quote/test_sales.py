from services.sales.quote_client import quote_client_retries


def test_the_client_uses_5():
    assert quote_client_retries() == 5
