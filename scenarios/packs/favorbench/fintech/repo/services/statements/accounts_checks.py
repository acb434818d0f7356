"""Statements checks whether accounts exist before it acts on them."""

from services.ledger.lookup import find_account


def account_exists(table, key):
    return find_account(table, key) is not None
