"""Shared settings: every service reads them by name."""

DEFAULTS = {
    "pallet_cache_ttl_s": 300,  # seconds a cached pallet stays
    "delivery_timeout_s": 30,  # seconds deliveries calls wait
    "parcel_timeout_s": 30,  # seconds parcels calls wait
    "route_cache_ttl_s": 300,  # seconds a cached route stays
    "truck_cache_ttl_s": 300,  # seconds a cached truck stays
    "driver_retries": 3,  # attempts per driver call
}


def setting(name):
    """A shared setting by name."""
    return DEFAULTS[name]
