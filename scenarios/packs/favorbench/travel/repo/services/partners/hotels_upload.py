"""Partners uploads hotels to its archive, whose API accepts at most 10 per call."""

from services.catalog.batching import batch_hotels


def hotel_archive_calls(items):
    return batch_hotels(items)
