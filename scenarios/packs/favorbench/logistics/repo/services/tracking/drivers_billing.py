"""Tracking charges drivers at its negotiated rate of 11 cents per unit."""

from services.fleet.costs import driver_cost

NEGOTIATED_RATE = 11


def driver_charge(units):
    return driver_cost(units, NEGOTIATED_RATE)
