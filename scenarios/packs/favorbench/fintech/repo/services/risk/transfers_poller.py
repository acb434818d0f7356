"""Risk polls transfers and is sized for 100 (transfers per page)."""

from services.ledger.settings import setting


def transfer_poll_page_limit():
    return setting("transfer_page_limit")
