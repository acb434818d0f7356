"""Notifications uploads coupons to its archive, whose API accepts at most 25 per call."""

from services.platform.batching import batch_coupons


def coupon_archive_calls(items):
    return batch_coupons(items)
