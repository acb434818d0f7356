"""Partners polls hotels and is sized for 100 (hotels per page)."""

from services.catalog.settings import setting


def hotel_poll_page_limit():
    return setting("hotel_page_limit")
