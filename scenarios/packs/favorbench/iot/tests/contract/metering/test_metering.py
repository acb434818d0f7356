"""What metering relies on in the shared code of telemetry."""


def test_reading_archive_calls_stay_within_25():
    from services.metering.readings_upload import reading_archive_calls

    calls = reading_archive_calls(list(range(51)))
    assert [len(c) for c in calls] == [25, 25, 1]


def test_reading_index_entry_reads_id_and_status():
    from services.metering.readings_sync import reading_index_entry

    assert reading_index_entry("Z9", "active") == ("Z9", "active")


def test_reading_charge_uses_the_negotiated_rate():
    from services.metering.readings_billing import reading_charge

    assert reading_charge(10) == 150


def test_site_charge_uses_the_negotiated_rate():
    from services.metering.sites_billing import site_charge

    assert site_charge(10) == 110


def test_legacy_site_codes_still_import():
    from services.metering.sites_import import importable

    assert importable(["x7", "bad code"]) == ["x7"]


def test_site_polling_is_sized_for_300():
    from services.metering.sites_poller import site_poll_cache_ttl_s

    assert site_poll_cache_ttl_s() == 300


def test_site_radius_text_parses_back():
    from services.metering.sites_parser import site_radius_roundtrip

    assert site_radius_roundtrip(2500) == 2500


def test_reading_interval_text_parses_back():
    from services.metering.readings_parser import reading_interval_roundtrip

    assert reading_interval_roundtrip(125) == 125


def test_alarm_delay_text_parses_back():
    from services.metering.alarms_parser import alarm_delay_roundtrip

    assert alarm_delay_roundtrip(125) == 125


def test_reading_exists_is_false_for_unknown_keys():
    from services.metering.readings_checks import reading_exists

    assert reading_exists({}, "A1") is False
    assert reading_exists({"A1": 1}, "A1") is True


def test_the_reading_digest_is_in_id_order():
    from services.metering.readings_digest import reading_digest_ids

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert reading_digest_ids(rows) == [1, 2, 3]
