"""Warehouse polls pallets and is sized for 300 (seconds a cached pallet stays)."""

from services.fleet.settings import setting


def pallet_poll_cache_ttl_s():
    return setting("pallet_cache_ttl_s")
