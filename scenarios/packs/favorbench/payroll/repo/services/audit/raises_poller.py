"""Audit polls raises and is sized for 3 (attempts per raise call)."""

from services.compensation.settings import setting


def raise_poll_retries():
    return setting("raise_retries")
