"""Records charges shifts at its negotiated rate of 6 cents per unit."""

from services.scheduling.costs import shift_cost

NEGOTIATED_RATE = 6


def shift_charge(units):
    return shift_cost(units, NEGOTIATED_RATE)
