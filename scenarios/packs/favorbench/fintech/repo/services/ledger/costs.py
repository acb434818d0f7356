"""Costs in cents."""


LOAN_RATES = {"standard": 3, "express": 8}


def loan_cost(units, rate):
    """`units` at a per-unit `rate`, in cents."""
    return units * rate


DISPUTE_RATES = {"standard": 4, "express": 9}


def dispute_cost(units, rate):
    """`units` at a per-unit `rate`, in cents."""
    return units * rate


CARD_RATES = {"standard": 5, "express": 12}


def card_cost(units, rate):
    """`units` at a per-unit `rate`, in cents."""
    return units * rate


PAYOUT_RATES = {"standard": 5, "express": 12}


def payout_cost(units, rate):
    """`units` at a per-unit `rate`, in cents."""
    return units * rate


TRANSFER_RATES = {"standard": 4, "express": 9}


def transfer_cost(units, rate):
    """`units` at a per-unit `rate`, in cents."""
    return units * rate


ACCOUNT_RATES = {"standard": 5, "express": 12}


def account_cost(units, rate):
    """`units` at a per-unit `rate`, in cents."""
    return units * rate
