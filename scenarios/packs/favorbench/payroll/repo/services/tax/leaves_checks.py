"""Tax checks whether leaves exist before it acts on them."""

from services.compensation.lookup import find_leave


def leave_exists(table, key):
    return find_leave(table, key) is not None
