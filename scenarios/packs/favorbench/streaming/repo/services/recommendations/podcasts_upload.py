"""Recommendations uploads podcasts to its archive, whose API accepts at most 25 per call."""

from services.catalog.batching import batch_podcasts


def podcast_archive_calls(items):
    return batch_podcasts(items)
