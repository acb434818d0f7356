"""Reporting uploads refunds to its archive, whose API accepts at most 10 per call."""

from services.platform.batching import batch_refunds


def refund_archive_calls(items):
    return batch_refunds(items)
