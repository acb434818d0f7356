"""Support polls transfers and is sized for 30 (seconds transfers calls wait)."""

from services.catalog.settings import setting


def transfer_poll_timeout_s():
    return setting("transfer_timeout_s")
