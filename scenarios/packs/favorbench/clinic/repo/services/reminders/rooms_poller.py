"""Reminders polls rooms and is sized for 100 (rooms per page)."""

from services.scheduling.settings import setting


def room_poll_page_limit():
    return setting("room_page_limit")
