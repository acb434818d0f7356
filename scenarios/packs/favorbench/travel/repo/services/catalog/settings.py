"""Shared settings: every service reads them by name."""

DEFAULTS = {
    "bag_timeout_s": 30,  # seconds bags calls wait
    "transfer_timeout_s": 30,  # seconds transfers calls wait
    "flight_cache_ttl_s": 300,  # seconds a cached flight stays
    "hotel_page_limit": 100,  # hotels per page
    "trip_cache_ttl_s": 300,  # seconds a cached trip stays
    "seat_timeout_s": 30,  # seconds seats calls wait
}


def setting(name):
    """A shared setting by name."""
    return DEFAULTS[name]
