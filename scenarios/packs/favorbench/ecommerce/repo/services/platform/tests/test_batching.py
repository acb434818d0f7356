"""Tests of services/platform/batching.py (run them all: python -m services.platform.tests)."""


def test_batch_orders_keeps_every_item_in_order():
    from services.platform.batching import ORDER_BATCH_SIZE, batch_orders

    items = list(range(3 * ORDER_BATCH_SIZE + 1))
    batches = batch_orders(items)
    assert [x for batch in batches for x in batch] == items
    assert all(0 < len(batch) <= ORDER_BATCH_SIZE for batch in batches)


def test_batch_shipments_keeps_every_item_in_order():
    from services.platform.batching import SHIPMENT_BATCH_SIZE, batch_shipments

    items = list(range(3 * SHIPMENT_BATCH_SIZE + 1))
    batches = batch_shipments(items)
    assert [x for batch in batches for x in batch] == items
    assert all(0 < len(batch) <= SHIPMENT_BATCH_SIZE for batch in batches)


def test_batch_coupons_keeps_every_item_in_order():
    from services.platform.batching import COUPON_BATCH_SIZE, batch_coupons

    items = list(range(3 * COUPON_BATCH_SIZE + 1))
    batches = batch_coupons(items)
    assert [x for batch in batches for x in batch] == items
    assert all(0 < len(batch) <= COUPON_BATCH_SIZE for batch in batches)


def test_batch_refunds_keeps_every_item_in_order():
    from services.platform.batching import REFUND_BATCH_SIZE, batch_refunds

    items = list(range(3 * REFUND_BATCH_SIZE + 1))
    batches = batch_refunds(items)
    assert [x for batch in batches for x in batch] == items
    assert all(0 < len(batch) <= REFUND_BATCH_SIZE for batch in batches)


def test_batch_products_keeps_every_item_in_order():
    from services.platform.batching import PRODUCT_BATCH_SIZE, batch_products

    items = list(range(3 * PRODUCT_BATCH_SIZE + 1))
    batches = batch_products(items)
    assert [x for batch in batches for x in batch] == items
    assert all(0 < len(batch) <= PRODUCT_BATCH_SIZE for batch in batches)


def test_batch_carts_keeps_every_item_in_order():
    from services.platform.batching import CART_BATCH_SIZE, batch_carts

    items = list(range(3 * CART_BATCH_SIZE + 1))
    batches = batch_carts(items)
    assert [x for batch in batches for x in batch] == items
    assert all(0 < len(batch) <= CART_BATCH_SIZE for batch in batches)
