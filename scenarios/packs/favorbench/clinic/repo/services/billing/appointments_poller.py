"""Billing polls appointments and is sized for 100 (appointments per page)."""

from services.scheduling.settings import setting


def appointment_poll_page_limit():
    return setting("appointment_page_limit")
