"""Tests of services/catalog/batching.py (run them all: python -m services.catalog.tests)."""


def test_batch_tracks_keeps_every_item_in_order():
    from services.catalog.batching import TRACK_BATCH_SIZE, batch_tracks

    items = list(range(3 * TRACK_BATCH_SIZE + 1))
    batches = batch_tracks(items)
    assert [x for batch in batches for x in batch] == items
    assert all(0 < len(batch) <= TRACK_BATCH_SIZE for batch in batches)


def test_batch_albums_keeps_every_item_in_order():
    from services.catalog.batching import ALBUM_BATCH_SIZE, batch_albums

    items = list(range(3 * ALBUM_BATCH_SIZE + 1))
    batches = batch_albums(items)
    assert [x for batch in batches for x in batch] == items
    assert all(0 < len(batch) <= ALBUM_BATCH_SIZE for batch in batches)


def test_batch_playlists_keeps_every_item_in_order():
    from services.catalog.batching import PLAYLIST_BATCH_SIZE, batch_playlists

    items = list(range(3 * PLAYLIST_BATCH_SIZE + 1))
    batches = batch_playlists(items)
    assert [x for batch in batches for x in batch] == items
    assert all(0 < len(batch) <= PLAYLIST_BATCH_SIZE for batch in batches)


def test_batch_podcasts_keeps_every_item_in_order():
    from services.catalog.batching import PODCAST_BATCH_SIZE, batch_podcasts

    items = list(range(3 * PODCAST_BATCH_SIZE + 1))
    batches = batch_podcasts(items)
    assert [x for batch in batches for x in batch] == items
    assert all(0 < len(batch) <= PODCAST_BATCH_SIZE for batch in batches)


def test_batch_subscriptions_keeps_every_item_in_order():
    from services.catalog.batching import SUBSCRIPTION_BATCH_SIZE, batch_subscriptions

    items = list(range(3 * SUBSCRIPTION_BATCH_SIZE + 1))
    batches = batch_subscriptions(items)
    assert [x for batch in batches for x in batch] == items
    assert all(0 < len(batch) <= SUBSCRIPTION_BATCH_SIZE for batch in batches)


def test_batch_artists_keeps_every_item_in_order():
    from services.catalog.batching import ARTIST_BATCH_SIZE, batch_artists

    items = list(range(3 * ARTIST_BATCH_SIZE + 1))
    batches = batch_artists(items)
    assert [x for batch in batches for x in batch] == items
    assert all(0 < len(batch) <= ARTIST_BATCH_SIZE for batch in batches)
