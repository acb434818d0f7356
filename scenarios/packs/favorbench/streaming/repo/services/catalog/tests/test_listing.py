"""Tests of services/catalog/listing.py (run them all: python -m services.catalog.tests)."""


def test_list_albums_keeps_every_row():
    from services.catalog.listing import list_albums

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sorted(row['id'] for row in list_albums(rows)) == [1, 2, 3]


def test_list_playlists_keeps_every_row():
    from services.catalog.listing import list_playlists

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sorted(row['id'] for row in list_playlists(rows)) == [1, 2, 3]


def test_list_podcasts_keeps_every_row():
    from services.catalog.listing import list_podcasts

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sorted(row['id'] for row in list_podcasts(rows)) == [1, 2, 3]


def test_list_subscriptions_keeps_every_row():
    from services.catalog.listing import list_subscriptions

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sorted(row['id'] for row in list_subscriptions(rows)) == [1, 2, 3]


def test_list_artists_keeps_every_row():
    from services.catalog.listing import list_artists

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sorted(row['id'] for row in list_artists(rows)) == [1, 2, 3]


def test_list_tracks_keeps_every_row():
    from services.catalog.listing import list_tracks

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sorted(row['id'] for row in list_tracks(rows)) == [1, 2, 3]
