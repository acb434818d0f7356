"""Costs in cents."""


COUPON_RATES = {"standard": 5, "express": 12}


def coupon_cost(units, rate):
    """`units` at a per-unit `rate`, in cents."""
    return units * rate


REFUND_RATES = {"standard": 3, "express": 8}


def refund_cost(units, rate):
    """`units` at a per-unit `rate`, in cents."""
    return units * rate


PRODUCT_RATES = {"standard": 5, "express": 12}


def product_cost(units, rate):
    """`units` at a per-unit `rate`, in cents."""
    return units * rate


CART_RATES = {"standard": 4, "express": 9}


def cart_cost(units, rate):
    """`units` at a per-unit `rate`, in cents."""
    return units * rate


ORDER_RATES = {"standard": 4, "express": 9}


def order_cost(units, rate):
    """`units` at a per-unit `rate`, in cents."""
    return units * rate


SHIPMENT_RATES = {"standard": 2, "express": 7}


def shipment_cost(units, rate):
    """`units` at a per-unit `rate`, in cents."""
    return units * rate
