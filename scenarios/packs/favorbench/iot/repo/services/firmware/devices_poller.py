"""Firmware polls devices and is sized for 30 (seconds devices calls wait)."""

from services.telemetry.settings import setting


def device_poll_timeout_s():
    return setting("device_timeout_s")
