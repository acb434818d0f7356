"""Loyalty uploads seats to its archive, whose API accepts at most 20 per call."""

from services.catalog.batching import batch_seats


def seat_archive_calls(items):
    return batch_seats(items)
