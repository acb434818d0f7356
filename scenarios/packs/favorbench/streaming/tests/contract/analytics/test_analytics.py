"""What analytics relies on in the shared code of catalog."""


def test_playlist_archive_calls_stay_within_20():
    from services.analytics.playlists_upload import playlist_archive_calls

    calls = playlist_archive_calls(list(range(41)))
    assert [len(c) for c in calls] == [20, 20, 1]


def test_playlist_index_entry_reads_id_and_status():
    from services.analytics.playlists_sync import playlist_index_entry

    assert playlist_index_entry("Z9", "active") == ("Z9", "active")


def test_playlist_charge_uses_the_negotiated_rate():
    from services.analytics.playlists_billing import playlist_charge

    assert playlist_charge(10) == 150


def test_artist_charge_uses_the_negotiated_rate():
    from services.analytics.artists_billing import artist_charge

    assert artist_charge(10) == 110


def test_legacy_artist_codes_still_import():
    from services.analytics.artists_import import importable

    assert importable(["ab12", "bad code"]) == ["ab12"]


def test_artist_polling_is_sized_for_300():
    from services.analytics.artists_poller import artist_poll_cache_ttl_s

    assert artist_poll_cache_ttl_s() == 300


def test_artist_share_text_parses_back():
    from services.analytics.artists_parser import artist_share_roundtrip

    assert artist_share_roundtrip(0.125) == 0.125


def test_playlist_length_text_parses_back():
    from services.analytics.playlists_parser import playlist_length_roundtrip

    assert playlist_length_roundtrip(125) == 125


def test_subscription_price_text_parses_back():
    from services.analytics.subscriptions_parser import subscription_price_roundtrip

    assert subscription_price_roundtrip(123450) == 123450


def test_playlist_exists_is_false_for_unknown_keys():
    from services.analytics.playlists_checks import playlist_exists

    assert playlist_exists({}, "A1") is False
    assert playlist_exists({"A1": 1}, "A1") is True


def test_the_playlist_digest_is_in_id_order():
    from services.analytics.playlists_digest import playlist_digest_ids

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert playlist_digest_ids(rows) == [1, 2, 3]
