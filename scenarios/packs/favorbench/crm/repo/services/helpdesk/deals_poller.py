"""Helpdesk polls deals and is sized for 30 (seconds deals calls wait)."""

from services.contacts.settings import setting


def deal_poll_timeout_s():
    return setting("deal_timeout_s")
