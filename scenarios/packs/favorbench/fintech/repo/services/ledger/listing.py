"""Listings: rows in a stable order."""


def list_accounts(rows):
    """Accounts sorted by id."""
    return sorted(rows, key=lambda row: row["id"])


def list_loans(rows):
    """Loans sorted by id."""
    return sorted(rows, key=lambda row: row["id"])


def list_disputes(rows):
    """Disputes sorted by id."""
    return sorted(rows, key=lambda row: row["id"])


def list_cards(rows):
    """Cards sorted by id."""
    return sorted(rows, key=lambda row: row["id"])


def list_payouts(rows):
    """Payouts sorted by id."""
    return sorted(rows, key=lambda row: row["id"])


def list_transfers(rows):
    """Transfers sorted by id."""
    return sorted(rows, key=lambda row: row["id"])
