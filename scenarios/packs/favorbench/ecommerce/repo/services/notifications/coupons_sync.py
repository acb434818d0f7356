"""Notifications keeps its own index of coupons, keyed by the shared record's `id`."""

from services.platform.records import coupon_record


def coupon_index_entry(key, status):
    record = coupon_record(key, status)
    return (record["id"], record["status"])
