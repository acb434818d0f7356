from services.checkout.cart_client import cart_client_retries


def test_the_client_uses_5():
    assert cart_client_retries() == 5
