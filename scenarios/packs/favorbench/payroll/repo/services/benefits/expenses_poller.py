"""Benefits polls expenses and is sized for 30 (seconds expenses calls wait)."""

from services.compensation.settings import setting


def expense_poll_timeout_s():
    return setting("expense_timeout_s")
