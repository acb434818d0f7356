"""Batching helpers: lists split into API-sized batches."""


ORDER_BATCH_SIZE = 25


def batch_orders(items):
    """Orders in batches of ORDER_BATCH_SIZE, in their order."""
    return [items[i : i + ORDER_BATCH_SIZE] for i in range(0, len(items), ORDER_BATCH_SIZE)]


SHIPMENT_BATCH_SIZE = 10


def batch_shipments(items):
    """Shipments in batches of SHIPMENT_BATCH_SIZE, in their order."""
    return [items[i : i + SHIPMENT_BATCH_SIZE] for i in range(0, len(items), SHIPMENT_BATCH_SIZE)]


COUPON_BATCH_SIZE = 25


def batch_coupons(items):
    """Coupons in batches of COUPON_BATCH_SIZE, in their order."""
    return [items[i : i + COUPON_BATCH_SIZE] for i in range(0, len(items), COUPON_BATCH_SIZE)]


REFUND_BATCH_SIZE = 10


def batch_refunds(items):
    """Refunds in batches of REFUND_BATCH_SIZE, in their order."""
    return [items[i : i + REFUND_BATCH_SIZE] for i in range(0, len(items), REFUND_BATCH_SIZE)]


PRODUCT_BATCH_SIZE = 20


def batch_products(items):
    """Products in batches of PRODUCT_BATCH_SIZE, in their order."""
    return [items[i : i + PRODUCT_BATCH_SIZE] for i in range(0, len(items), PRODUCT_BATCH_SIZE)]


CART_BATCH_SIZE = 20


def batch_carts(items):
    """Carts in batches of CART_BATCH_SIZE, in their order."""
    return [items[i : i + CART_BATCH_SIZE] for i in range(0, len(items), CART_BATCH_SIZE)]
