"""Support charges trips at its negotiated rate of 6 cents per unit."""

from services.catalog.costs import trip_cost

NEGOTIATED_RATE = 6


def trip_charge(units):
    return trip_cost(units, NEGOTIATED_RATE)
