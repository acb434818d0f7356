"""Support uploads trips to its archive, whose API accepts at most 20 per call."""

from services.catalog.batching import batch_trips


def trip_archive_calls(items):
    return batch_trips(items)
