"""What invoicing relies on in the shared code of fleet."""


def test_truck_archive_calls_stay_within_10():
    from services.invoicing.trucks_upload import truck_archive_calls

    calls = truck_archive_calls(list(range(21)))
    assert [len(c) for c in calls] == [10, 10, 1]


def test_truck_index_entry_reads_id_and_status():
    from services.invoicing.trucks_sync import truck_index_entry

    assert truck_index_entry("Z9", "confirmed") == ("Z9", "confirmed")


def test_truck_charge_uses_the_negotiated_rate():
    from services.invoicing.trucks_billing import truck_charge

    assert truck_charge(10) == 150


def test_delivery_charge_uses_the_negotiated_rate():
    from services.invoicing.deliveries_billing import delivery_charge

    assert delivery_charge(10) == 110


def test_legacy_delivery_codes_still_import():
    from services.invoicing.deliveries_import import importable

    assert importable(["x7", "bad code"]) == ["x7"]


def test_delivery_polling_is_sized_for_30():
    from services.invoicing.deliveries_poller import delivery_poll_timeout_s

    assert delivery_poll_timeout_s() == 30


def test_delivery_distance_text_parses_back():
    from services.invoicing.deliveries_parser import delivery_distance_roundtrip

    assert delivery_distance_roundtrip(2500) == 2500


def test_truck_load_text_parses_back():
    from services.invoicing.trucks_parser import truck_load_roundtrip

    assert truck_load_roundtrip(1500) == 1500


def test_pallet_weight_text_parses_back():
    from services.invoicing.pallets_parser import pallet_weight_roundtrip

    assert pallet_weight_roundtrip(1500) == 1500


def test_truck_exists_is_false_for_unknown_keys():
    from services.invoicing.trucks_checks import truck_exists

    assert truck_exists({}, "B7") is False
    assert truck_exists({"B7": 1}, "B7") is True


def test_the_truck_digest_is_in_id_order():
    from services.invoicing.trucks_digest import truck_digest_ids

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert truck_digest_ids(rows) == [1, 2, 3]
