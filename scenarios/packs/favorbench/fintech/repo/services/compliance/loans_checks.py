"""Compliance checks whether loans exist before it acts on them."""

from services.ledger.lookup import find_loan


def loan_exists(table, key):
    return find_loan(table, key) is not None
