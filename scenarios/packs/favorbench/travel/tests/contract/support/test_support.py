"""What support relies on in the shared code of catalog."""


def test_trip_archive_calls_stay_within_20():
    from services.support.trips_upload import trip_archive_calls

    calls = trip_archive_calls(list(range(41)))
    assert [len(c) for c in calls] == [20, 20, 1]


def test_trip_index_entry_reads_id_and_status():
    from services.support.trips_sync import trip_index_entry

    assert trip_index_entry("Z9", "active") == ("Z9", "active")


def test_trip_charge_uses_the_negotiated_rate():
    from services.support.trips_billing import trip_charge

    assert trip_charge(10) == 60


def test_transfer_charge_uses_the_negotiated_rate():
    from services.support.transfers_billing import transfer_charge

    assert transfer_charge(10) == 110


def test_legacy_transfer_codes_still_import():
    from services.support.transfers_import import importable

    assert importable(["m42", "bad code"]) == ["m42"]


def test_transfer_polling_is_sized_for_30():
    from services.support.transfers_poller import transfer_poll_timeout_s

    assert transfer_poll_timeout_s() == 30


def test_transfer_distance_text_parses_back():
    from services.support.transfers_parser import transfer_distance_roundtrip

    assert transfer_distance_roundtrip(2500) == 2500


def test_trip_length_text_parses_back():
    from services.support.trips_parser import trip_length_roundtrip

    assert trip_length_roundtrip(125) == 125


def test_bag_weight_text_parses_back():
    from services.support.bags_parser import bag_weight_roundtrip

    assert bag_weight_roundtrip(1500) == 1500


def test_trip_exists_is_false_for_unknown_keys():
    from services.support.trips_checks import trip_exists

    assert trip_exists({}, "C3") is False
    assert trip_exists({"C3": 1}, "C3") is True


def test_the_trip_digest_is_in_id_order():
    from services.support.trips_digest import trip_digest_ids

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert trip_digest_ids(rows) == [1, 2, 3]
