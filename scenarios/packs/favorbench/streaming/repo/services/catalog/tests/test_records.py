"""Tests of services/catalog/records.py (run them all: python -m services.catalog.tests)."""


def test_album_record_keeps_the_status():
    from services.catalog.records import album_record

    assert album_record("A1", "active")["status"] == "active"


def test_playlist_record_keeps_the_status():
    from services.catalog.records import playlist_record

    assert playlist_record("A1", "active")["status"] == "active"


def test_podcast_record_keeps_the_status():
    from services.catalog.records import podcast_record

    assert podcast_record("A1", "confirmed")["status"] == "confirmed"


def test_subscription_record_keeps_the_status():
    from services.catalog.records import subscription_record

    assert subscription_record("A1", "open")["status"] == "open"


def test_artist_record_keeps_the_status():
    from services.catalog.records import artist_record

    assert artist_record("A1", "pending")["status"] == "pending"


def test_track_record_keeps_the_status():
    from services.catalog.records import track_record

    assert track_record("A1", "open")["status"] == "open"
