"""Invoicing polls deliveries and is sized for 30 (seconds deliveries calls wait)."""

from services.fleet.settings import setting


def delivery_poll_timeout_s():
    return setting("delivery_timeout_s")
