"""Records as plain dicts, the shape other services read."""


def device_record(key, status):
    """Device `key` as a plain dict for other services."""
    return {
        "id": key,
        "status": status,
    }


def reading_record(key, status):
    """Reading `key` as a plain dict for other services."""
    return {
        "id": key,
        "status": status,
    }


def gateway_record(key, status):
    """Gateway `key` as a plain dict for other services."""
    return {
        "id": key,
        "status": status,
    }


def alarm_record(key, status):
    """Alarm `key` as a plain dict for other services."""
    return {
        "id": key,
        "status": status,
    }


def site_record(key, status):
    """Site `key` as a plain dict for other services."""
    return {
        "id": key,
        "status": status,
    }


def sensor_record(key, status):
    """Sensor `key` as a plain dict for other services."""
    return {
        "id": key,
        "status": status,
    }
