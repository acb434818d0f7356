"""Formatting values as text."""


def format_site_radius(meters):
    """The radius as text, e.g. 2500 m."""
    return f"{meters} m"


def format_sensor_range(meters):
    """The range as text, e.g. 2500 m."""
    return f"{meters} m"


def format_device_battery(ratio):
    """The battery as text, e.g. 0.125."""
    return f"{ratio:.3f}"


def format_reading_interval(seconds):
    """The interval as text, e.g. 125 s."""
    return f"{seconds} s"


def format_gateway_uptime(ratio):
    """The uptime as text, e.g. 0.125."""
    return f"{ratio:.3f}"


def format_alarm_delay(seconds):
    """The delay as text, e.g. 125 s."""
    return f"{seconds} s"
