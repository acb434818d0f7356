"""Analytics uploads playlists to its archive, whose API accepts at most 20 per call."""

from services.catalog.batching import batch_playlists


def playlist_archive_calls(items):
    return batch_playlists(items)
