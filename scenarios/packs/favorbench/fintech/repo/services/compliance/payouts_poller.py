"""Compliance polls payouts and is sized for 3 (attempts per payout call)."""

from services.ledger.settings import setting


def payout_poll_retries():
    return setting("payout_retries")
