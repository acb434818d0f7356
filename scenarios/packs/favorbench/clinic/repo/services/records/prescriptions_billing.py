"""Records charges prescriptions at its negotiated rate of 15 cents per unit."""

from services.scheduling.costs import prescription_cost

NEGOTIATED_RATE = 15


def prescription_charge(units):
    return prescription_cost(units, NEGOTIATED_RATE)
