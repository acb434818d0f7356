"""Tax charges leaves at its negotiated rate of 6 cents per unit."""

from services.compensation.costs import leave_cost

NEGOTIATED_RATE = 6


def leave_charge(units):
    return leave_cost(units, NEGOTIATED_RATE)
