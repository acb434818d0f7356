"""Shared settings. Every service reads them through get()."""

DEFAULTS = {
    "retries": 3,
    "timeout_s": 10,
    "cart_ttl_minutes": 30,
}


def get(key):
    """The setting `key`; an unknown key is an error, never a silent None."""
    if key not in DEFAULTS:
        raise KeyError(f"unknown setting {key!r}")
    return DEFAULTS[key]
