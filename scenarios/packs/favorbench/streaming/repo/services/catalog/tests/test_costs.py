"""Tests of services/catalog/costs.py (run them all: python -m services.catalog.tests)."""


def test_playlist_rates_are_positive_cents():
    from services.catalog.costs import PLAYLIST_RATES

    assert set(PLAYLIST_RATES) == {"standard", "express"}
    assert all(isinstance(v, int) and v > 0 for v in PLAYLIST_RATES.values())


def test_podcast_rates_are_positive_cents():
    from services.catalog.costs import PODCAST_RATES

    assert set(PODCAST_RATES) == {"standard", "express"}
    assert all(isinstance(v, int) and v > 0 for v in PODCAST_RATES.values())


def test_subscription_rates_are_positive_cents():
    from services.catalog.costs import SUBSCRIPTION_RATES

    assert set(SUBSCRIPTION_RATES) == {"standard", "express"}
    assert all(isinstance(v, int) and v > 0 for v in SUBSCRIPTION_RATES.values())


def test_artist_rates_are_positive_cents():
    from services.catalog.costs import ARTIST_RATES

    assert set(ARTIST_RATES) == {"standard", "express"}
    assert all(isinstance(v, int) and v > 0 for v in ARTIST_RATES.values())


def test_track_rates_are_positive_cents():
    from services.catalog.costs import TRACK_RATES

    assert set(TRACK_RATES) == {"standard", "express"}
    assert all(isinstance(v, int) and v > 0 for v in TRACK_RATES.values())


def test_album_rates_are_positive_cents():
    from services.catalog.costs import ALBUM_RATES

    assert set(ALBUM_RATES) == {"standard", "express"}
    assert all(isinstance(v, int) and v > 0 for v in ALBUM_RATES.values())
