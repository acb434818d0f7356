"""Tests of services/telemetry/validation.py (run them all: python -m services.telemetry.tests)."""


def test_valid_gateway_code_rejects_punctuation():
    from services.telemetry.validation import valid_gateway_code

    assert valid_gateway_code("AB12CD34EF56")
    assert not valid_gateway_code("AB12-CD34EF56")


def test_valid_alarm_code_rejects_punctuation():
    from services.telemetry.validation import valid_alarm_code

    assert valid_alarm_code("AB12CD34EF56")
    assert not valid_alarm_code("AB12-CD34EF56")


def test_valid_site_code_rejects_punctuation():
    from services.telemetry.validation import valid_site_code

    assert valid_site_code("AB12CD34EF56")
    assert not valid_site_code("AB12-CD34EF56")


def test_valid_sensor_code_rejects_punctuation():
    from services.telemetry.validation import valid_sensor_code

    assert valid_sensor_code("AB12CD34EF")
    assert not valid_sensor_code("AB12-CD34EF")


def test_valid_device_code_rejects_punctuation():
    from services.telemetry.validation import valid_device_code

    assert valid_device_code("AB12CD34EF56")
    assert not valid_device_code("AB12-CD34EF56")


def test_valid_reading_code_rejects_punctuation():
    from services.telemetry.validation import valid_reading_code

    assert valid_reading_code("AB12CD34")
    assert not valid_reading_code("AB12-CD34")
