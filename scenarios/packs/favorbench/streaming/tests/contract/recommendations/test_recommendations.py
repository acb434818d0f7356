"""What recommendations relies on in the shared code of catalog."""


def test_track_archive_calls_stay_within_10():
    from services.recommendations.tracks_upload import track_archive_calls

    calls = track_archive_calls(list(range(21)))
    assert [len(c) for c in calls] == [10, 10, 1]


def test_podcast_archive_calls_stay_within_25():
    from services.recommendations.podcasts_upload import podcast_archive_calls

    calls = podcast_archive_calls(list(range(51)))
    assert [len(c) for c in calls] == [25, 25, 1]


def test_podcast_index_entry_reads_id_and_status():
    from services.recommendations.podcasts_sync import podcast_index_entry

    assert podcast_index_entry("Z9", "confirmed") == ("Z9", "confirmed")


def test_podcast_charge_uses_the_negotiated_rate():
    from services.recommendations.podcasts_billing import podcast_charge

    assert podcast_charge(10) == 150


def test_legacy_podcast_codes_still_import():
    from services.recommendations.podcasts_import import importable

    assert importable(["ab12", "bad code"]) == ["ab12"]


def test_legacy_track_codes_still_import():
    from services.recommendations.tracks_import import importable

    assert importable(["x7", "bad code"]) == ["x7"]


def test_legacy_playlist_codes_still_import():
    from services.recommendations.playlists_import import importable

    assert importable(["k9z", "bad code"]) == ["k9z"]


def test_track_polling_is_sized_for_300():
    from services.recommendations.tracks_poller import track_poll_cache_ttl_s

    assert track_poll_cache_ttl_s() == 300


def test_track_length_text_parses_back():
    from services.recommendations.tracks_parser import track_length_roundtrip

    assert track_length_roundtrip(125) == 125


def test_track_exists_is_false_for_unknown_keys():
    from services.recommendations.tracks_checks import track_exists

    assert track_exists({}, "B7") is False
    assert track_exists({"B7": 1}, "B7") is True


def test_podcast_exists_is_false_for_unknown_keys():
    from services.recommendations.podcasts_checks import podcast_exists

    assert podcast_exists({}, "K9") is False
    assert podcast_exists({"K9": 1}, "K9") is True


def test_the_podcast_digest_is_in_id_order():
    from services.recommendations.podcasts_digest import podcast_digest_ids

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert podcast_digest_ids(rows) == [1, 2, 3]
