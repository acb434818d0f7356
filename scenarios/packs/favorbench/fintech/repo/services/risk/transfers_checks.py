"""Risk checks whether transfers exist before it acts on them."""

from services.ledger.lookup import find_transfer


def transfer_exists(table, key):
    return find_transfer(table, key) is not None
