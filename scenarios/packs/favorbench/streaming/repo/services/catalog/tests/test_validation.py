"""Tests of services/catalog/validation.py (run them all: python -m services.catalog.tests)."""


def test_valid_podcast_code_rejects_punctuation():
    from services.catalog.validation import valid_podcast_code

    assert valid_podcast_code("AB12CD34EF")
    assert not valid_podcast_code("AB12-CD34EF")


def test_valid_subscription_code_rejects_punctuation():
    from services.catalog.validation import valid_subscription_code

    assert valid_subscription_code("AB12CD34EF")
    assert not valid_subscription_code("AB12-CD34EF")


def test_valid_artist_code_rejects_punctuation():
    from services.catalog.validation import valid_artist_code

    assert valid_artist_code("AB12CD34")
    assert not valid_artist_code("AB12-CD34")


def test_valid_track_code_rejects_punctuation():
    from services.catalog.validation import valid_track_code

    assert valid_track_code("AB12CD34")
    assert not valid_track_code("AB12-CD34")


def test_valid_album_code_rejects_punctuation():
    from services.catalog.validation import valid_album_code

    assert valid_album_code("AB12CD34")
    assert not valid_album_code("AB12-CD34")


def test_valid_playlist_code_rejects_punctuation():
    from services.catalog.validation import valid_playlist_code

    assert valid_playlist_code("AB12CD34")
    assert not valid_playlist_code("AB12-CD34")
