"""Loyalty uploads flights to its archive, whose API accepts at most 10 per call."""

from services.catalog.batching import batch_flights


def flight_archive_calls(items):
    return batch_flights(items)
