"""Reporting polls orders and is sized for 3 (attempts per order call)."""

from services.platform.settings import setting


def order_poll_retries():
    return setting("order_retries")
