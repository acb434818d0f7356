"""Tests of services/telemetry/formatting.py (run them all: python -m services.telemetry.tests)."""


def test_format_site_radius_gives_distinct_text():
    from services.telemetry.formatting import format_site_radius

    assert isinstance(format_site_radius(2500), str)
    assert format_site_radius(2500) != format_site_radius(5000)


def test_format_sensor_range_gives_distinct_text():
    from services.telemetry.formatting import format_sensor_range

    assert isinstance(format_sensor_range(2500), str)
    assert format_sensor_range(2500) != format_sensor_range(5000)


def test_format_device_battery_gives_distinct_text():
    from services.telemetry.formatting import format_device_battery

    assert isinstance(format_device_battery(0.125), str)
    assert format_device_battery(0.125) != format_device_battery(0.25)


def test_format_reading_interval_gives_distinct_text():
    from services.telemetry.formatting import format_reading_interval

    assert isinstance(format_reading_interval(125), str)
    assert format_reading_interval(125) != format_reading_interval(250)


def test_format_gateway_uptime_gives_distinct_text():
    from services.telemetry.formatting import format_gateway_uptime

    assert isinstance(format_gateway_uptime(0.125), str)
    assert format_gateway_uptime(0.125) != format_gateway_uptime(0.25)


def test_format_alarm_delay_gives_distinct_text():
    from services.telemetry.formatting import format_alarm_delay

    assert isinstance(format_alarm_delay(125), str)
    assert format_alarm_delay(125) != format_alarm_delay(250)
