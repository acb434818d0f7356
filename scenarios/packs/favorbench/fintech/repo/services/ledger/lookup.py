"""Lookups in plain dict tables."""


def find_transfer(table, key):
    """The transfer stored under `key` in `table`, or None when there is none."""
    return table.get(key)


def find_account(table, key):
    """The account stored under `key` in `table`, or None when there is none."""
    return table.get(key)


def find_loan(table, key):
    """The loan stored under `key` in `table`, or None when there is none."""
    return table.get(key)


def find_dispute(table, key):
    """The dispute stored under `key` in `table`, or None when there is none."""
    return table.get(key)


def find_card(table, key):
    """The card stored under `key` in `table`, or None when there is none."""
    return table.get(key)


def find_payout(table, key):
    """The payout stored under `key` in `table`, or None when there is none."""
    return table.get(key)
