"""Audit charges raises at its negotiated rate of 15 cents per unit."""

from services.compensation.costs import raise_cost

NEGOTIATED_RATE = 15


def raise_charge(units):
    return raise_cost(units, NEGOTIATED_RATE)
