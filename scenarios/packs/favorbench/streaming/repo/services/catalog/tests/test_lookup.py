"""Tests of services/catalog/lookup.py (run them all: python -m services.catalog.tests)."""


def test_find_track_returns_what_is_stored():
    from services.catalog.lookup import find_track

    assert find_track({"B7": 1}, "B7") == 1


def test_find_album_returns_what_is_stored():
    from services.catalog.lookup import find_album

    assert find_album({"K9": 1}, "K9") == 1


def test_find_playlist_returns_what_is_stored():
    from services.catalog.lookup import find_playlist

    assert find_playlist({"A1": 1}, "A1") == 1


def test_find_podcast_returns_what_is_stored():
    from services.catalog.lookup import find_podcast

    assert find_podcast({"K9": 1}, "K9") == 1


def test_find_subscription_returns_what_is_stored():
    from services.catalog.lookup import find_subscription

    assert find_subscription({"K9": 1}, "K9") == 1


def test_find_artist_returns_what_is_stored():
    from services.catalog.lookup import find_artist

    assert find_artist({"C3": 1}, "C3") == 1
