"""Notifications polls carts and is sized for 3 (attempts per cart call)."""

from services.platform.settings import setting


def cart_poll_retries():
    return setting("cart_retries")
