"""Library polls assignments and is sized for 300 (seconds a cached assignment stays)."""

from services.courses.settings import setting


def assignment_poll_cache_ttl_s():
    return setting("assignment_cache_ttl_s")
