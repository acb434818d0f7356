"""Forecasting polls quotes and is sized for 3 (attempts per quote call)."""

from services.contacts.settings import setting


def quote_poll_retries():
    return setting("quote_retries")
