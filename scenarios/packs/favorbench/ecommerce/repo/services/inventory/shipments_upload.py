"""Inventory uploads shipments to its archive, whose API accepts at most 10 per call."""

from services.platform.batching import batch_shipments


def shipment_archive_calls(items):
    return batch_shipments(items)
