"""What warehouse relies on in the shared code of fleet."""


def test_route_archive_calls_stay_within_25():
    from services.warehouse.routes_upload import route_archive_calls

    calls = route_archive_calls(list(range(51)))
    assert [len(c) for c in calls] == [25, 25, 1]


def test_route_index_entry_reads_id_and_status():
    from services.warehouse.routes_sync import route_index_entry

    assert route_index_entry("Z9", "confirmed") == ("Z9", "confirmed")


def test_pallet_index_entry_reads_id_and_status():
    from services.warehouse.pallets_sync import pallet_index_entry

    assert pallet_index_entry("Z9", "pending") == ("Z9", "pending")


def test_parcel_index_entry_reads_id_and_status():
    from services.warehouse.parcels_sync import parcel_index_entry

    assert parcel_index_entry("Z9", "active") == ("Z9", "active")


def test_pallet_charge_uses_the_negotiated_rate():
    from services.warehouse.pallets_billing import pallet_charge

    assert pallet_charge(10) == 150


def test_legacy_pallet_codes_still_import():
    from services.warehouse.pallets_import import importable

    assert importable(["ab12", "bad code"]) == ["ab12"]


def test_pallet_polling_is_sized_for_300():
    from services.warehouse.pallets_poller import pallet_poll_cache_ttl_s

    assert pallet_poll_cache_ttl_s() == 300


def test_route_polling_is_sized_for_300():
    from services.warehouse.routes_poller import route_poll_cache_ttl_s

    assert route_poll_cache_ttl_s() == 300


def test_route_length_text_parses_back():
    from services.warehouse.routes_parser import route_length_roundtrip

    assert route_length_roundtrip(2500) == 2500


def test_route_exists_is_false_for_unknown_keys():
    from services.warehouse.routes_checks import route_exists

    assert route_exists({}, "C3") is False
    assert route_exists({"C3": 1}, "C3") is True


def test_the_route_digest_is_in_id_order():
    from services.warehouse.routes_digest import route_digest_ids

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert route_digest_ids(rows) == [1, 2, 3]


def test_the_pallet_digest_is_in_id_order():
    from services.warehouse.pallets_digest import pallet_digest_ids

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert pallet_digest_ids(rows) == [1, 2, 3]


def test_the_parcel_digest_is_in_id_order():
    from services.warehouse.parcels_digest import parcel_digest_ids

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert parcel_digest_ids(rows) == [1, 2, 3]
