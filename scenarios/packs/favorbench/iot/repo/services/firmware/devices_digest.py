"""Firmware's daily digest lists devices by id, as the shared listing gives them."""

from services.telemetry.listing import list_devices


def device_digest_ids(rows):
    return [row["id"] for row in list_devices(rows)]
