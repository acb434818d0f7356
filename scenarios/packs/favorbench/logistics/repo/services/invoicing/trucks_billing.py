"""Invoicing charges trucks at its negotiated rate of 15 cents per unit."""

from services.fleet.costs import truck_cost

NEGOTIATED_RATE = 15


def truck_charge(units):
    return truck_cost(units, NEGOTIATED_RATE)
