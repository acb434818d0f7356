"""Risk checks whether disputes exist before it acts on them."""

from services.ledger.lookup import find_dispute


def dispute_exists(table, key):
    return find_dispute(table, key) is not None
