"""Inventory polls shipments and is sized for 3 (attempts per shipment call)."""

from services.platform.settings import setting


def shipment_poll_retries():
    return setting("shipment_retries")
