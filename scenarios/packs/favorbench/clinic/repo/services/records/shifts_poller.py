"""Records polls shifts and is sized for 30 (seconds shifts calls wait)."""

from services.scheduling.settings import setting


def shift_poll_timeout_s():
    return setting("shift_timeout_s")
