"""Shared settings: every service reads them by name."""

DEFAULTS = {
    "card_retries": 3,  # attempts per card call
    "payout_retries": 3,  # attempts per payout call
    "transfer_page_limit": 100,  # transfers per page
    "account_retries": 3,  # attempts per account call
    "loan_timeout_s": 30,  # seconds loans calls wait
    "dispute_page_limit": 100,  # disputes per page
}


def setting(name):
    """A shared setting by name."""
    return DEFAULTS[name]
