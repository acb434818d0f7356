"""What tracking relies on in the shared code of fleet."""


def test_parcel_archive_calls_stay_within_10():
    from services.tracking.parcels_upload import parcel_archive_calls

    calls = parcel_archive_calls(list(range(21)))
    assert [len(c) for c in calls] == [10, 10, 1]


def test_driver_archive_calls_stay_within_10():
    from services.tracking.drivers_upload import driver_archive_calls

    calls = driver_archive_calls(list(range(21)))
    assert [len(c) for c in calls] == [10, 10, 1]


def test_driver_index_entry_reads_id_and_status():
    from services.tracking.drivers_sync import driver_index_entry

    assert driver_index_entry("Z9", "confirmed") == ("Z9", "confirmed")


def test_driver_charge_uses_the_negotiated_rate():
    from services.tracking.drivers_billing import driver_charge

    assert driver_charge(10) == 110


def test_legacy_driver_codes_still_import():
    from services.tracking.drivers_import import importable

    assert importable(["x7", "bad code"]) == ["x7"]


def test_legacy_parcel_codes_still_import():
    from services.tracking.parcels_import import importable

    assert importable(["ab12", "bad code"]) == ["ab12"]


def test_legacy_truck_codes_still_import():
    from services.tracking.trucks_import import importable

    assert importable(["m42", "bad code"]) == ["m42"]


def test_parcel_polling_is_sized_for_30():
    from services.tracking.parcels_poller import parcel_poll_timeout_s

    assert parcel_poll_timeout_s() == 30


def test_parcel_weight_text_parses_back():
    from services.tracking.parcels_parser import parcel_weight_roundtrip

    assert parcel_weight_roundtrip(1500) == 1500


def test_parcel_exists_is_false_for_unknown_keys():
    from services.tracking.parcels_checks import parcel_exists

    assert parcel_exists({}, "B7") is False
    assert parcel_exists({"B7": 1}, "B7") is True


def test_driver_exists_is_false_for_unknown_keys():
    from services.tracking.drivers_checks import driver_exists

    assert driver_exists({}, "C3") is False
    assert driver_exists({"C3": 1}, "C3") is True


def test_the_driver_digest_is_in_id_order():
    from services.tracking.drivers_digest import driver_digest_ids

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert driver_digest_ids(rows) == [1, 2, 3]
