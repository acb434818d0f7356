"""Costs in cents."""


PRESCRIPTION_RATES = {"standard": 3, "express": 8}


def prescription_cost(units, rate):
    """`units` at a per-unit `rate`, in cents."""
    return units * rate


REFERRAL_RATES = {"standard": 5, "express": 12}


def referral_cost(units, rate):
    """`units` at a per-unit `rate`, in cents."""
    return units * rate


VISIT_RATES = {"standard": 5, "express": 12}


def visit_cost(units, rate):
    """`units` at a per-unit `rate`, in cents."""
    return units * rate


SHIFT_RATES = {"standard": 2, "express": 7}


def shift_cost(units, rate):
    """`units` at a per-unit `rate`, in cents."""
    return units * rate


APPOINTMENT_RATES = {"standard": 4, "express": 9}


def appointment_cost(units, rate):
    """`units` at a per-unit `rate`, in cents."""
    return units * rate


ROOM_RATES = {"standard": 2, "express": 7}


def room_cost(units, rate):
    """`units` at a per-unit `rate`, in cents."""
    return units * rate
