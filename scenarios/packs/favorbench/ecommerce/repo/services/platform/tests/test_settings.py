"""Tests of services/platform/settings.py (run them all: python -m services.platform.tests)."""


def test_product_page_limit_is_a_positive_whole_number():
    from services.platform.settings import setting

    assert isinstance(setting("product_page_limit"), int) and setting("product_page_limit") > 0


def test_cart_retries_is_a_positive_whole_number():
    from services.platform.settings import setting

    assert isinstance(setting("cart_retries"), int) and setting("cart_retries") > 0


def test_order_retries_is_a_positive_whole_number():
    from services.platform.settings import setting

    assert isinstance(setting("order_retries"), int) and setting("order_retries") > 0


def test_shipment_retries_is_a_positive_whole_number():
    from services.platform.settings import setting

    assert isinstance(setting("shipment_retries"), int) and setting("shipment_retries") > 0


def test_coupon_page_limit_is_a_positive_whole_number():
    from services.platform.settings import setting

    assert isinstance(setting("coupon_page_limit"), int) and setting("coupon_page_limit") > 0


def test_refund_page_limit_is_a_positive_whole_number():
    from services.platform.settings import setting

    assert isinstance(setting("refund_page_limit"), int) and setting("refund_page_limit") > 0
