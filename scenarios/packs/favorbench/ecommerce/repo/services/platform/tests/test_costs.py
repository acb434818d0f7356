"""Tests of services/platform/costs.py (run them all: python -m services.platform.tests)."""


def test_coupon_rates_are_positive_cents():
    from services.platform.costs import COUPON_RATES

    assert set(COUPON_RATES) == {"standard", "express"}
    assert all(isinstance(v, int) and v > 0 for v in COUPON_RATES.values())


def test_refund_rates_are_positive_cents():
    from services.platform.costs import REFUND_RATES

    assert set(REFUND_RATES) == {"standard", "express"}
    assert all(isinstance(v, int) and v > 0 for v in REFUND_RATES.values())


def test_product_rates_are_positive_cents():
    from services.platform.costs import PRODUCT_RATES

    assert set(PRODUCT_RATES) == {"standard", "express"}
    assert all(isinstance(v, int) and v > 0 for v in PRODUCT_RATES.values())


def test_cart_rates_are_positive_cents():
    from services.platform.costs import CART_RATES

    assert set(CART_RATES) == {"standard", "express"}
    assert all(isinstance(v, int) and v > 0 for v in CART_RATES.values())


def test_order_rates_are_positive_cents():
    from services.platform.costs import ORDER_RATES

    assert set(ORDER_RATES) == {"standard", "express"}
    assert all(isinstance(v, int) and v > 0 for v in ORDER_RATES.values())


def test_shipment_rates_are_positive_cents():
    from services.platform.costs import SHIPMENT_RATES

    assert set(SHIPMENT_RATES) == {"standard", "express"}
    assert all(isinstance(v, int) and v > 0 for v in SHIPMENT_RATES.values())
