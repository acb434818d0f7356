"""Costs in cents."""


TICKET_RATES = {"standard": 3, "express": 8}


def ticket_cost(units, rate):
    """`units` at a per-unit `rate`, in cents."""
    return units * rate


CAMPAIGN_RATES = {"standard": 2, "express": 7}


def campaign_cost(units, rate):
    """`units` at a per-unit `rate`, in cents."""
    return units * rate


CONTACT_RATES = {"standard": 3, "express": 8}


def contact_cost(units, rate):
    """`units` at a per-unit `rate`, in cents."""
    return units * rate


QUOTE_RATES = {"standard": 5, "express": 12}


def quote_cost(units, rate):
    """`units` at a per-unit `rate`, in cents."""
    return units * rate


LEAD_RATES = {"standard": 3, "express": 8}


def lead_cost(units, rate):
    """`units` at a per-unit `rate`, in cents."""
    return units * rate


DEAL_RATES = {"standard": 5, "express": 12}


def deal_cost(units, rate):
    """`units` at a per-unit `rate`, in cents."""
    return units * rate
