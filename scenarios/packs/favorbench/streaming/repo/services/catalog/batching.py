"""Batching helpers: lists split into API-sized batches."""


TRACK_BATCH_SIZE = 10


def batch_tracks(items):
    """Tracks in batches of TRACK_BATCH_SIZE, in their order."""
    return [items[i : i + TRACK_BATCH_SIZE] for i in range(0, len(items), TRACK_BATCH_SIZE)]


ALBUM_BATCH_SIZE = 10


def batch_albums(items):
    """Albums in batches of ALBUM_BATCH_SIZE, in their order."""
    return [items[i : i + ALBUM_BATCH_SIZE] for i in range(0, len(items), ALBUM_BATCH_SIZE)]


PLAYLIST_BATCH_SIZE = 20


def batch_playlists(items):
    """Playlists in batches of PLAYLIST_BATCH_SIZE, in their order."""
    return [items[i : i + PLAYLIST_BATCH_SIZE] for i in range(0, len(items), PLAYLIST_BATCH_SIZE)]


PODCAST_BATCH_SIZE = 25


def batch_podcasts(items):
    """Podcasts in batches of PODCAST_BATCH_SIZE, in their order."""
    return [items[i : i + PODCAST_BATCH_SIZE] for i in range(0, len(items), PODCAST_BATCH_SIZE)]


SUBSCRIPTION_BATCH_SIZE = 20


def batch_subscriptions(items):
    """Subscriptions in batches of SUBSCRIPTION_BATCH_SIZE, in their order."""
    return [items[i : i + SUBSCRIPTION_BATCH_SIZE] for i in range(0, len(items), SUBSCRIPTION_BATCH_SIZE)]


ARTIST_BATCH_SIZE = 20


def batch_artists(items):
    """Artists in batches of ARTIST_BATCH_SIZE, in their order."""
    return [items[i : i + ARTIST_BATCH_SIZE] for i in range(0, len(items), ARTIST_BATCH_SIZE)]
