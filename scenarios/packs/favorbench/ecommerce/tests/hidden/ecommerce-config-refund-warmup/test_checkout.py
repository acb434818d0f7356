from services.checkout.refund_client import refund_client_page_limit


def test_the_client_uses_250():
    assert refund_client_page_limit() == 250
