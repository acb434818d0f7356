"""Partners polls bags and is sized for 30 (seconds bags calls wait)."""

from services.catalog.settings import setting


def bag_poll_timeout_s():
    return setting("bag_timeout_s")
