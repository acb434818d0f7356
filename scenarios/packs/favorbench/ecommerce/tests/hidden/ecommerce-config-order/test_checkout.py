from services.checkout.order_client import order_client_retries


def test_the_client_uses_5():
    assert order_client_retries() == 5
