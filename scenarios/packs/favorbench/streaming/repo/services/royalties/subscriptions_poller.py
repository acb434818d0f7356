"""Royalties polls subscriptions and is sized for 100 (subscriptions per page)."""

from services.catalog.settings import setting


def subscription_poll_page_limit():
    return setting("subscription_page_limit")
