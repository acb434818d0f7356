"""Tracking uploads drivers to its archive, whose API accepts at most 10 per call."""

from services.fleet.batching import batch_drivers


def driver_archive_calls(items):
    return batch_drivers(items)
