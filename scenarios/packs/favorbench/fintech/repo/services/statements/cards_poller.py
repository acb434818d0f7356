"""Statements polls cards and is sized for 3 (attempts per card call)."""

from services.ledger.settings import setting


def card_poll_retries():
    return setting("card_retries")
