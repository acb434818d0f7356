"""Tracking polls parcels and is sized for 30 (seconds parcels calls wait)."""

from services.fleet.settings import setting


def parcel_poll_timeout_s():
    return setting("parcel_timeout_s")
