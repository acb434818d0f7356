"""Tests of services/platform/validation.py (run them all: python -m services.platform.tests)."""


def test_valid_refund_code_rejects_punctuation():
    from services.platform.validation import valid_refund_code

    assert valid_refund_code("AB12CD34EF")
    assert not valid_refund_code("AB12-CD34EF")


def test_valid_product_code_rejects_punctuation():
    from services.platform.validation import valid_product_code

    assert valid_product_code("AB12CD34EF")
    assert not valid_product_code("AB12-CD34EF")


def test_valid_cart_code_rejects_punctuation():
    from services.platform.validation import valid_cart_code

    assert valid_cart_code("AB12CD34EF")
    assert not valid_cart_code("AB12-CD34EF")


def test_valid_order_code_rejects_punctuation():
    from services.platform.validation import valid_order_code

    assert valid_order_code("AB12CD34EF56")
    assert not valid_order_code("AB12-CD34EF56")


def test_valid_shipment_code_rejects_punctuation():
    from services.platform.validation import valid_shipment_code

    assert valid_shipment_code("AB12CD34")
    assert not valid_shipment_code("AB12-CD34")


def test_valid_coupon_code_rejects_punctuation():
    from services.platform.validation import valid_coupon_code

    assert valid_coupon_code("AB12CD34EF")
    assert not valid_coupon_code("AB12-CD34EF")
