"""Shared settings: every service reads them by name."""

DEFAULTS = {
    "alarm_page_limit": 100,  # alarms per page
    "site_cache_ttl_s": 300,  # seconds a cached site stays
    "sensor_page_limit": 100,  # sensors per page
    "device_timeout_s": 30,  # seconds devices calls wait
    "reading_retries": 3,  # attempts per reading call
    "gateway_cache_ttl_s": 300,  # seconds a cached gateway stays
}


def setting(name):
    """A shared setting by name."""
    return DEFAULTS[name]
