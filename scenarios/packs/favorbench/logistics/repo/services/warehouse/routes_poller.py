"""Warehouse polls routes and is sized for 300 (seconds a cached route stays)."""

from services.fleet.settings import setting


def route_poll_cache_ttl_s():
    return setting("route_cache_ttl_s")
