"""What firmware relies on in the shared code of telemetry."""


def test_device_archive_calls_stay_within_20():
    from services.firmware.devices_upload import device_archive_calls

    calls = device_archive_calls(list(range(41)))
    assert [len(c) for c in calls] == [20, 20, 1]


def test_device_index_entry_reads_id_and_status():
    from services.firmware.devices_sync import device_index_entry

    assert device_index_entry("Z9", "open") == ("Z9", "open")


def test_alarm_index_entry_reads_id_and_status():
    from services.firmware.alarms_sync import alarm_index_entry

    assert alarm_index_entry("Z9", "active") == ("Z9", "active")


def test_sensor_index_entry_reads_id_and_status():
    from services.firmware.sensors_sync import sensor_index_entry

    assert sensor_index_entry("Z9", "confirmed") == ("Z9", "confirmed")


def test_alarm_charge_uses_the_negotiated_rate():
    from services.firmware.alarms_billing import alarm_charge

    assert alarm_charge(10) == 110


def test_legacy_alarm_codes_still_import():
    from services.firmware.alarms_import import importable

    assert importable(["k9z", "bad code"]) == ["k9z"]


def test_alarm_polling_is_sized_for_100():
    from services.firmware.alarms_poller import alarm_poll_page_limit

    assert alarm_poll_page_limit() == 100


def test_device_polling_is_sized_for_30():
    from services.firmware.devices_poller import device_poll_timeout_s

    assert device_poll_timeout_s() == 30


def test_device_battery_text_parses_back():
    from services.firmware.devices_parser import device_battery_roundtrip

    assert device_battery_roundtrip(0.125) == 0.125


def test_device_exists_is_false_for_unknown_keys():
    from services.firmware.devices_checks import device_exists

    assert device_exists({}, "B7") is False
    assert device_exists({"B7": 1}, "B7") is True


def test_the_device_digest_is_in_id_order():
    from services.firmware.devices_digest import device_digest_ids

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert device_digest_ids(rows) == [1, 2, 3]


def test_the_alarm_digest_is_in_id_order():
    from services.firmware.alarms_digest import alarm_digest_ids

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert alarm_digest_ids(rows) == [1, 2, 3]


def test_the_sensor_digest_is_in_id_order():
    from services.firmware.sensors_digest import sensor_digest_ids

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sensor_digest_ids(rows) == [1, 2, 3]
