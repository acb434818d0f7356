"""Support charges transfers at its negotiated rate of 11 cents per unit."""

from services.catalog.costs import transfer_cost

NEGOTIATED_RATE = 11


def transfer_charge(units):
    return transfer_cost(units, NEGOTIATED_RATE)
