"""Statements polls accounts and is sized for 3 (attempts per account call)."""

from services.ledger.settings import setting


def account_poll_retries():
    return setting("account_retries")
