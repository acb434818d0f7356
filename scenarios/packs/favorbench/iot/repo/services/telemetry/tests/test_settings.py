"""Tests of services/telemetry/settings.py (run them all: python -m services.telemetry.tests)."""


def test_alarm_page_limit_is_a_positive_whole_number():
    from services.telemetry.settings import setting

    assert isinstance(setting("alarm_page_limit"), int) and setting("alarm_page_limit") > 0


def test_site_cache_ttl_s_is_a_positive_whole_number():
    from services.telemetry.settings import setting

    assert isinstance(setting("site_cache_ttl_s"), int) and setting("site_cache_ttl_s") > 0


def test_sensor_page_limit_is_a_positive_whole_number():
    from services.telemetry.settings import setting

    assert isinstance(setting("sensor_page_limit"), int) and setting("sensor_page_limit") > 0


def test_device_timeout_s_is_a_positive_whole_number():
    from services.telemetry.settings import setting

    assert isinstance(setting("device_timeout_s"), int) and setting("device_timeout_s") > 0


def test_reading_retries_is_a_positive_whole_number():
    from services.telemetry.settings import setting

    assert isinstance(setting("reading_retries"), int) and setting("reading_retries") > 0


def test_gateway_cache_ttl_s_is_a_positive_whole_number():
    from services.telemetry.settings import setting

    assert isinstance(setting("gateway_cache_ttl_s"), int) and setting("gateway_cache_ttl_s") > 0
