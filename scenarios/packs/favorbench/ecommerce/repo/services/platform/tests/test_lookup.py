"""Tests of services/platform/lookup.py (run them all: python -m services.platform.tests)."""


def test_find_order_returns_what_is_stored():
    from services.platform.lookup import find_order

    assert find_order({"B7": 1}, "B7") == 1


def test_find_shipment_returns_what_is_stored():
    from services.platform.lookup import find_shipment

    assert find_shipment({"A1": 1}, "A1") == 1


def test_find_coupon_returns_what_is_stored():
    from services.platform.lookup import find_coupon

    assert find_coupon({"B7": 1}, "B7") == 1


def test_find_refund_returns_what_is_stored():
    from services.platform.lookup import find_refund

    assert find_refund({"K9": 1}, "K9") == 1


def test_find_product_returns_what_is_stored():
    from services.platform.lookup import find_product

    assert find_product({"A1": 1}, "A1") == 1


def test_find_cart_returns_what_is_stored():
    from services.platform.lookup import find_cart

    assert find_cart({"A1": 1}, "A1") == 1
