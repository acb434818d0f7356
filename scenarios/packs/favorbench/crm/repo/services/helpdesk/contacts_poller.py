"""Helpdesk polls contacts and is sized for 30 (seconds contacts calls wait)."""

from services.contacts.settings import setting


def contact_poll_timeout_s():
    return setting("contact_timeout_s")
