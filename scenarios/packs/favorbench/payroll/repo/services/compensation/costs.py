"""Costs in cents."""


BONUS_RATES = {"standard": 4, "express": 9}


def bonus_cost(units, rate):
    """`units` at a per-unit `rate`, in cents."""
    return units * rate


LEAVE_RATES = {"standard": 5, "express": 12}


def leave_cost(units, rate):
    """`units` at a per-unit `rate`, in cents."""
    return units * rate


EXPENSE_RATES = {"standard": 5, "express": 12}


def expense_cost(units, rate):
    """`units` at a per-unit `rate`, in cents."""
    return units * rate


RAISE_RATES = {"standard": 2, "express": 7}


def raise_cost(units, rate):
    """`units` at a per-unit `rate`, in cents."""
    return units * rate


EMPLOYEE_RATES = {"standard": 2, "express": 7}


def employee_cost(units, rate):
    """`units` at a per-unit `rate`, in cents."""
    return units * rate


SHIFT_RATES = {"standard": 2, "express": 7}


def shift_cost(units, rate):
    """`units` at a per-unit `rate`, in cents."""
    return units * rate
