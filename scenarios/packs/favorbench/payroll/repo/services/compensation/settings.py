"""Shared settings: every service reads them by name."""

DEFAULTS = {
    "expense_timeout_s": 30,  # seconds expenses calls wait
    "raise_retries": 3,  # attempts per raise call
    "employee_retries": 3,  # attempts per employee call
    "shift_cache_ttl_s": 300,  # seconds a cached shift stays
    "bonus_retries": 3,  # attempts per bonus call
    "leave_timeout_s": 30,  # seconds leaves calls wait
}


def setting(name):
    """A shared setting by name."""
    return DEFAULTS[name]
