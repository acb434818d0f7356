"""Metering polls sites and is sized for 300 (seconds a cached site stays)."""

from services.telemetry.settings import setting


def site_poll_cache_ttl_s():
    return setting("site_cache_ttl_s")
