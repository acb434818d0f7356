"""Shared settings: every service reads them by name."""

DEFAULTS = {
    "contact_timeout_s": 30,  # seconds contacts calls wait
    "quote_retries": 3,  # attempts per quote call
    "lead_retries": 3,  # attempts per lead call
    "deal_timeout_s": 30,  # seconds deals calls wait
    "ticket_cache_ttl_s": 300,  # seconds a cached ticket stays
    "campaign_timeout_s": 30,  # seconds campaigns calls wait
}


def setting(name):
    """A shared setting by name."""
    return DEFAULTS[name]
