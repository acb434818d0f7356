"""Records as plain dicts, the shape other services read."""


def shift_record(key, status):
    """Shift `key` as a plain dict for other services."""
    return {
        "id": key,
        "status": status,
    }


def bonus_record(key, status):
    """Bonus `key` as a plain dict for other services."""
    return {
        "id": key,
        "status": status,
    }


def leave_record(key, status):
    """Leave `key` as a plain dict for other services."""
    return {
        "id": key,
        "status": status,
    }


def expense_record(key, status):
    """Expense `key` as a plain dict for other services."""
    return {
        "id": key,
        "status": status,
    }


def raise_record(key, status):
    """Raise `key` as a plain dict for other services."""
    return {
        "id": key,
        "status": status,
    }


def employee_record(key, status):
    """Employee `key` as a plain dict for other services."""
    return {
        "id": key,
        "status": status,
    }
