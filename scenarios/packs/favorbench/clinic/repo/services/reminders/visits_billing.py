"""Reminders charges visits at its negotiated rate of 6 cents per unit."""

from services.scheduling.costs import visit_cost

NEGOTIATED_RATE = 6


def visit_charge(units):
    return visit_cost(units, NEGOTIATED_RATE)
