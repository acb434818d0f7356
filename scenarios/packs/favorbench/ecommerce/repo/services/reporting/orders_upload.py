"""Reporting uploads orders to its archive, whose API accepts at most 25 per call."""

from services.platform.batching import batch_orders


def order_archive_calls(items):
    return batch_orders(items)
