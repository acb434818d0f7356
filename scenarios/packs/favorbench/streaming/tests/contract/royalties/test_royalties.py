"""What royalties relies on in the shared code of catalog."""


def test_album_archive_calls_stay_within_10():
    from services.royalties.albums_upload import album_archive_calls

    calls = album_archive_calls(list(range(21)))
    assert [len(c) for c in calls] == [10, 10, 1]


def test_album_index_entry_reads_id_and_status():
    from services.royalties.albums_sync import album_index_entry

    assert album_index_entry("Z9", "active") == ("Z9", "active")


def test_subscription_index_entry_reads_id_and_status():
    from services.royalties.subscriptions_sync import subscription_index_entry

    assert subscription_index_entry("Z9", "open") == ("Z9", "open")


def test_track_index_entry_reads_id_and_status():
    from services.royalties.tracks_sync import track_index_entry

    assert track_index_entry("Z9", "open") == ("Z9", "open")


def test_subscription_charge_uses_the_negotiated_rate():
    from services.royalties.subscriptions_billing import subscription_charge

    assert subscription_charge(10) == 150


def test_legacy_subscription_codes_still_import():
    from services.royalties.subscriptions_import import importable

    assert importable(["ab12", "bad code"]) == ["ab12"]


def test_subscription_polling_is_sized_for_100():
    from services.royalties.subscriptions_poller import subscription_poll_page_limit

    assert subscription_poll_page_limit() == 100


def test_album_polling_is_sized_for_3():
    from services.royalties.albums_poller import album_poll_retries

    assert album_poll_retries() == 3


def test_album_price_text_parses_back():
    from services.royalties.albums_parser import album_price_roundtrip

    assert album_price_roundtrip(123450) == 123450


def test_album_exists_is_false_for_unknown_keys():
    from services.royalties.albums_checks import album_exists

    assert album_exists({}, "K9") is False
    assert album_exists({"K9": 1}, "K9") is True


def test_the_album_digest_is_in_id_order():
    from services.royalties.albums_digest import album_digest_ids

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert album_digest_ids(rows) == [1, 2, 3]


def test_the_subscription_digest_is_in_id_order():
    from services.royalties.subscriptions_digest import subscription_digest_ids

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert subscription_digest_ids(rows) == [1, 2, 3]


def test_the_track_digest_is_in_id_order():
    from services.royalties.tracks_digest import track_digest_ids

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert track_digest_ids(rows) == [1, 2, 3]
