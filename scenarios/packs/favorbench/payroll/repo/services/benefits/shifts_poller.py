"""Benefits polls shifts and is sized for 300 (seconds a cached shift stays)."""

from services.compensation.settings import setting


def shift_poll_cache_ttl_s():
    return setting("shift_cache_ttl_s")
