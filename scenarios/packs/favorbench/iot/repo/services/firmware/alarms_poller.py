"""Firmware polls alarms and is sized for 100 (alarms per page)."""

from services.telemetry.settings import setting


def alarm_poll_page_limit():
    return setting("alarm_page_limit")
