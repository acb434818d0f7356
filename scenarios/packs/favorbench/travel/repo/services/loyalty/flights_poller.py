"""Loyalty polls flights and is sized for 300 (seconds a cached flight stays)."""

from services.catalog.settings import setting


def flight_poll_cache_ttl_s():
    return setting("flight_cache_ttl_s")
