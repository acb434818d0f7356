"""Tests of services/platform/records.py (run them all: python -m services.platform.tests)."""


def test_shipment_record_keeps_the_status():
    from services.platform.records import shipment_record

    assert shipment_record("A1", "confirmed")["status"] == "confirmed"


def test_coupon_record_keeps_the_status():
    from services.platform.records import coupon_record

    assert coupon_record("A1", "open")["status"] == "open"


def test_refund_record_keeps_the_status():
    from services.platform.records import refund_record

    assert refund_record("A1", "active")["status"] == "active"


def test_product_record_keeps_the_status():
    from services.platform.records import product_record

    assert product_record("A1", "confirmed")["status"] == "confirmed"


def test_cart_record_keeps_the_status():
    from services.platform.records import cart_record

    assert cart_record("A1", "open")["status"] == "open"


def test_order_record_keeps_the_status():
    from services.platform.records import order_record

    assert order_record("A1", "confirmed")["status"] == "confirmed"
