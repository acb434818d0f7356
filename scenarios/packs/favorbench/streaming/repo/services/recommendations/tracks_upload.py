"""Recommendations uploads tracks to its archive, whose API accepts at most 10 per call."""

from services.catalog.batching import batch_tracks


def track_archive_calls(items):
    return batch_tracks(items)
