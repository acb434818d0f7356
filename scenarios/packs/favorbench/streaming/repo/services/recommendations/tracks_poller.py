"""Recommendations polls tracks and is sized for 300 (seconds a cached track stays)."""

from services.catalog.settings import setting


def track_poll_cache_ttl_s():
    return setting("track_cache_ttl_s")
