from services.checkout.coupon_client import coupon_client_page_limit


def test_the_client_uses_250():
    assert coupon_client_page_limit() == 250
