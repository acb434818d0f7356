"""Alerts polls sensors and is sized for 100 (sensors per page)."""

from services.telemetry.settings import setting


def sensor_poll_page_limit():
    return setting("sensor_page_limit")
