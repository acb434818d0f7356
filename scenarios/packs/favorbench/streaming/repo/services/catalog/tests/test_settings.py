"""Tests of services/catalog/settings.py (run them all: python -m services.catalog.tests)."""


def test_subscription_page_limit_is_a_positive_whole_number():
    from services.catalog.settings import setting

    assert isinstance(setting("subscription_page_limit"), int) and setting("subscription_page_limit") > 0


def test_artist_cache_ttl_s_is_a_positive_whole_number():
    from services.catalog.settings import setting

    assert isinstance(setting("artist_cache_ttl_s"), int) and setting("artist_cache_ttl_s") > 0


def test_track_cache_ttl_s_is_a_positive_whole_number():
    from services.catalog.settings import setting

    assert isinstance(setting("track_cache_ttl_s"), int) and setting("track_cache_ttl_s") > 0


def test_album_retries_is_a_positive_whole_number():
    from services.catalog.settings import setting

    assert isinstance(setting("album_retries"), int) and setting("album_retries") > 0


def test_playlist_timeout_s_is_a_positive_whole_number():
    from services.catalog.settings import setting

    assert isinstance(setting("playlist_timeout_s"), int) and setting("playlist_timeout_s") > 0


def test_podcast_retries_is_a_positive_whole_number():
    from services.catalog.settings import setting

    assert isinstance(setting("podcast_retries"), int) and setting("podcast_retries") > 0
