"""What alerts relies on in the shared code of telemetry."""


def test_sensor_archive_calls_stay_within_10():
    from services.alerts.sensors_upload import sensor_archive_calls

    calls = sensor_archive_calls(list(range(21)))
    assert [len(c) for c in calls] == [10, 10, 1]


def test_gateway_archive_calls_stay_within_10():
    from services.alerts.gateways_upload import gateway_archive_calls

    calls = gateway_archive_calls(list(range(21)))
    assert [len(c) for c in calls] == [10, 10, 1]


def test_gateway_index_entry_reads_id_and_status():
    from services.alerts.gateways_sync import gateway_index_entry

    assert gateway_index_entry("Z9", "open") == ("Z9", "open")


def test_gateway_charge_uses_the_negotiated_rate():
    from services.alerts.gateways_billing import gateway_charge

    assert gateway_charge(10) == 110


def test_legacy_gateway_codes_still_import():
    from services.alerts.gateways_import import importable

    assert importable(["x7", "bad code"]) == ["x7"]


def test_legacy_sensor_codes_still_import():
    from services.alerts.sensors_import import importable

    assert importable(["ab12", "bad code"]) == ["ab12"]


def test_legacy_reading_codes_still_import():
    from services.alerts.readings_import import importable

    assert importable(["k9z", "bad code"]) == ["k9z"]


def test_sensor_polling_is_sized_for_100():
    from services.alerts.sensors_poller import sensor_poll_page_limit

    assert sensor_poll_page_limit() == 100


def test_sensor_range_text_parses_back():
    from services.alerts.sensors_parser import sensor_range_roundtrip

    assert sensor_range_roundtrip(2500) == 2500


def test_sensor_exists_is_false_for_unknown_keys():
    from services.alerts.sensors_checks import sensor_exists

    assert sensor_exists({}, "B7") is False
    assert sensor_exists({"B7": 1}, "B7") is True


def test_gateway_exists_is_false_for_unknown_keys():
    from services.alerts.gateways_checks import gateway_exists

    assert gateway_exists({}, "C3") is False
    assert gateway_exists({"C3": 1}, "C3") is True


def test_the_gateway_digest_is_in_id_order():
    from services.alerts.gateways_digest import gateway_digest_ids

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert gateway_digest_ids(rows) == [1, 2, 3]
