"""Batching helpers: lists split into API-sized batches."""


EMPLOYEE_BATCH_SIZE = 20


def batch_employees(items):
    """Employees in batches of EMPLOYEE_BATCH_SIZE, in their order."""
    return [items[i : i + EMPLOYEE_BATCH_SIZE] for i in range(0, len(items), EMPLOYEE_BATCH_SIZE)]


SHIFT_BATCH_SIZE = 10


def batch_shifts(items):
    """Shifts in batches of SHIFT_BATCH_SIZE, in their order."""
    return [items[i : i + SHIFT_BATCH_SIZE] for i in range(0, len(items), SHIFT_BATCH_SIZE)]


BONUS_BATCH_SIZE = 20


def batch_bonuses(items):
    """Bonuses in batches of BONUS_BATCH_SIZE, in their order."""
    return [items[i : i + BONUS_BATCH_SIZE] for i in range(0, len(items), BONUS_BATCH_SIZE)]


LEAVE_BATCH_SIZE = 20


def batch_leaves(items):
    """Leaves in batches of LEAVE_BATCH_SIZE, in their order."""
    return [items[i : i + LEAVE_BATCH_SIZE] for i in range(0, len(items), LEAVE_BATCH_SIZE)]


EXPENSE_BATCH_SIZE = 20


def batch_expenses(items):
    """Expenses in batches of EXPENSE_BATCH_SIZE, in their order."""
    return [items[i : i + EXPENSE_BATCH_SIZE] for i in range(0, len(items), EXPENSE_BATCH_SIZE)]


RAISE_BATCH_SIZE = 10


def batch_raises(items):
    """Raises in batches of RAISE_BATCH_SIZE, in their order."""
    return [items[i : i + RAISE_BATCH_SIZE] for i in range(0, len(items), RAISE_BATCH_SIZE)]
