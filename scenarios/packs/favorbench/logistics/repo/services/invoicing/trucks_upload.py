"""Invoicing uploads trucks to its archive, whose API accepts at most 10 per call."""

from services.fleet.batching import batch_trucks


def truck_archive_calls(items):
    return batch_trucks(items)
