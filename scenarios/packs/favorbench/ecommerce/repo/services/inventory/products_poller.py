"""Inventory polls products and is sized for 100 (products per page)."""

from services.platform.settings import setting


def product_poll_page_limit():
    return setting("product_page_limit")
