"""Validation of codes and identifiers."""


def valid_gateway_code(code):
    """A gateway code: letters and digits only."""
    return code.isalnum()


def valid_alarm_code(code):
    """A alarm code: letters and digits only."""
    return code.isalnum()


def valid_site_code(code):
    """A site code: letters and digits only."""
    return code.isalnum()


def valid_sensor_code(code):
    """A sensor code: letters and digits only."""
    return code.isalnum()


def valid_device_code(code):
    """A device code: letters and digits only."""
    return code.isalnum()


def valid_reading_code(code):
    """A reading code: letters and digits only."""
    return code.isalnum()
