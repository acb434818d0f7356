"""Tests of services/telemetry/costs.py (run them all: python -m services.telemetry.tests)."""


def test_reading_rates_are_positive_cents():
    from services.telemetry.costs import READING_RATES

    assert set(READING_RATES) == {"standard", "express"}
    assert all(isinstance(v, int) and v > 0 for v in READING_RATES.values())


def test_gateway_rates_are_positive_cents():
    from services.telemetry.costs import GATEWAY_RATES

    assert set(GATEWAY_RATES) == {"standard", "express"}
    assert all(isinstance(v, int) and v > 0 for v in GATEWAY_RATES.values())


def test_alarm_rates_are_positive_cents():
    from services.telemetry.costs import ALARM_RATES

    assert set(ALARM_RATES) == {"standard", "express"}
    assert all(isinstance(v, int) and v > 0 for v in ALARM_RATES.values())


def test_site_rates_are_positive_cents():
    from services.telemetry.costs import SITE_RATES

    assert set(SITE_RATES) == {"standard", "express"}
    assert all(isinstance(v, int) and v > 0 for v in SITE_RATES.values())


def test_sensor_rates_are_positive_cents():
    from services.telemetry.costs import SENSOR_RATES

    assert set(SENSOR_RATES) == {"standard", "express"}
    assert all(isinstance(v, int) and v > 0 for v in SENSOR_RATES.values())


def test_device_rates_are_positive_cents():
    from services.telemetry.costs import DEVICE_RATES

    assert set(DEVICE_RATES) == {"standard", "express"}
    assert all(isinstance(v, int) and v > 0 for v in DEVICE_RATES.values())
