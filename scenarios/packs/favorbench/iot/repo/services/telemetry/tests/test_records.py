"""Tests of services/telemetry/records.py (run them all: python -m services.telemetry.tests)."""


def test_device_record_keeps_the_status():
    from services.telemetry.records import device_record

    assert device_record("A1", "open")["status"] == "open"


def test_reading_record_keeps_the_status():
    from services.telemetry.records import reading_record

    assert reading_record("A1", "active")["status"] == "active"


def test_gateway_record_keeps_the_status():
    from services.telemetry.records import gateway_record

    assert gateway_record("A1", "open")["status"] == "open"


def test_alarm_record_keeps_the_status():
    from services.telemetry.records import alarm_record

    assert alarm_record("A1", "active")["status"] == "active"


def test_site_record_keeps_the_status():
    from services.telemetry.records import site_record

    assert site_record("A1", "open")["status"] == "open"


def test_sensor_record_keeps_the_status():
    from services.telemetry.records import sensor_record

    assert sensor_record("A1", "confirmed")["status"] == "confirmed"
