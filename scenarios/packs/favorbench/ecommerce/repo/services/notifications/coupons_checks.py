"""Notifications checks whether coupons exist before it acts on them."""

from services.platform.lookup import find_coupon


def coupon_exists(table, key):
    return find_coupon(table, key) is not None
