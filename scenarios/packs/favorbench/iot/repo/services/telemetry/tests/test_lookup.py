"""Tests of services/telemetry/lookup.py (run them all: python -m services.telemetry.tests)."""


def test_find_sensor_returns_what_is_stored():
    from services.telemetry.lookup import find_sensor

    assert find_sensor({"B7": 1}, "B7") == 1


def test_find_device_returns_what_is_stored():
    from services.telemetry.lookup import find_device

    assert find_device({"B7": 1}, "B7") == 1


def test_find_reading_returns_what_is_stored():
    from services.telemetry.lookup import find_reading

    assert find_reading({"A1": 1}, "A1") == 1


def test_find_gateway_returns_what_is_stored():
    from services.telemetry.lookup import find_gateway

    assert find_gateway({"C3": 1}, "C3") == 1


def test_find_alarm_returns_what_is_stored():
    from services.telemetry.lookup import find_alarm

    assert find_alarm({"K9": 1}, "K9") == 1


def test_find_site_returns_what_is_stored():
    from services.telemetry.lookup import find_site

    assert find_site({"C3": 1}, "C3") == 1
