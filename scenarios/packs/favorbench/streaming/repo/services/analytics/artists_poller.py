"""Analytics polls artists and is sized for 300 (seconds a cached artist stays)."""

from services.catalog.settings import setting


def artist_poll_cache_ttl_s():
    return setting("artist_cache_ttl_s")
