"""Listings: rows in a stable order."""


def list_shifts(rows):
    """Shifts sorted by id."""
    return sorted(rows, key=lambda row: row["id"])


def list_bonuses(rows):
    """Bonuses sorted by id."""
    return sorted(rows, key=lambda row: row["id"])


def list_leaves(rows):
    """Leaves sorted by id."""
    return sorted(rows, key=lambda row: row["id"])


def list_expenses(rows):
    """Expenses sorted by id."""
    return sorted(rows, key=lambda row: row["id"])


def list_raises(rows):
    """Raises sorted by id."""
    return sorted(rows, key=lambda row: row["id"])


def list_employees(rows):
    """Employees sorted by id."""
    return sorted(rows, key=lambda row: row["id"])
