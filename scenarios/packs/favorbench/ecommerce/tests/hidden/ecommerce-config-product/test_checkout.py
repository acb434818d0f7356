from services.checkout.product_client import product_client_page_limit


def test_the_client_uses_250():
    assert product_client_page_limit() == 250
