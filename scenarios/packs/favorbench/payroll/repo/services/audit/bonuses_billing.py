"""Audit charges bonuses at its negotiated rate of 15 cents per unit."""

from services.compensation.costs import bonus_cost

NEGOTIATED_RATE = 15


def bonus_charge(units):
    return bonus_cost(units, NEGOTIATED_RATE)
