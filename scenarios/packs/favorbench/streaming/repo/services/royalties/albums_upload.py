"""Royalties uploads albums to its archive, whose API accepts at most 10 per call."""

from services.catalog.batching import batch_albums


def album_archive_calls(items):
    return batch_albums(items)
