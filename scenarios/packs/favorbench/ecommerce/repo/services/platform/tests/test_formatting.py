"""Tests of services/platform/formatting.py (run them all: python -m services.platform.tests)."""


def test_format_cart_value_gives_distinct_text():
    from services.platform.formatting import format_cart_value

    assert isinstance(format_cart_value(123450), str)
    assert format_cart_value(123450) != format_cart_value(246900)


def test_format_order_total_gives_distinct_text():
    from services.platform.formatting import format_order_total

    assert isinstance(format_order_total(123450), str)
    assert format_order_total(123450) != format_order_total(246900)


def test_format_shipment_weight_gives_distinct_text():
    from services.platform.formatting import format_shipment_weight

    assert isinstance(format_shipment_weight(1500), str)
    assert format_shipment_weight(1500) != format_shipment_weight(3000)


def test_format_coupon_discount_gives_distinct_text():
    from services.platform.formatting import format_coupon_discount

    assert isinstance(format_coupon_discount(0.125), str)
    assert format_coupon_discount(0.125) != format_coupon_discount(0.25)


def test_format_refund_amount_gives_distinct_text():
    from services.platform.formatting import format_refund_amount

    assert isinstance(format_refund_amount(123450), str)
    assert format_refund_amount(123450) != format_refund_amount(246900)


def test_format_product_weight_gives_distinct_text():
    from services.platform.formatting import format_product_weight

    assert isinstance(format_product_weight(1500), str)
    assert format_product_weight(1500) != format_product_weight(3000)
