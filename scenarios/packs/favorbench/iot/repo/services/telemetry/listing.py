"""Listings: rows in a stable order."""


def list_devices(rows):
    """Devices sorted by id."""
    return sorted(rows, key=lambda row: row["id"])


def list_readings(rows):
    """Readings sorted by id."""
    return sorted(rows, key=lambda row: row["id"])


def list_gateways(rows):
    """Gateways sorted by id."""
    return sorted(rows, key=lambda row: row["id"])


def list_alarms(rows):
    """Alarms sorted by id."""
    return sorted(rows, key=lambda row: row["id"])


def list_sites(rows):
    """Sites sorted by id."""
    return sorted(rows, key=lambda row: row["id"])


def list_sensors(rows):
    """Sensors sorted by id."""
    return sorted(rows, key=lambda row: row["id"])
