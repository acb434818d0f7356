"""Shared settings: every service reads them by name."""

DEFAULTS = {
    "visit_page_limit": 100,  # visits per page
    "shift_timeout_s": 30,  # seconds shifts calls wait
    "appointment_page_limit": 100,  # appointments per page
    "room_page_limit": 100,  # rooms per page
    "prescription_cache_ttl_s": 300,  # seconds a cached prescription stays
    "referral_timeout_s": 30,  # seconds referrals calls wait
}


def setting(name):
    """A shared setting by name."""
    return DEFAULTS[name]
