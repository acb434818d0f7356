"""Library charges assignments at its negotiated rate of 15 cents per unit."""

from services.courses.costs import assignment_cost

NEGOTIATED_RATE = 15


def assignment_charge(units):
    return assignment_cost(units, NEGOTIATED_RATE)
