"""Firmware's daily digest lists sensors by id, as the shared listing gives them."""

from services.telemetry.listing import list_sensors


def sensor_digest_ids(rows):
    return [row["id"] for row in list_sensors(rows)]
