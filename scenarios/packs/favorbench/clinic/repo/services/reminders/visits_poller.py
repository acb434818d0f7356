"""Reminders polls visits and is sized for 100 (visits per page)."""

from services.scheduling.settings import setting


def visit_poll_page_limit():
    return setting("visit_page_limit")
