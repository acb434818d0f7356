"""Loyalty charges seats at its negotiated rate of 11 cents per unit."""

from services.catalog.costs import seat_cost

NEGOTIATED_RATE = 11


def seat_charge(units):
    return seat_cost(units, NEGOTIATED_RATE)
