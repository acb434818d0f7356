"""Partners charges bags at its negotiated rate of 11 cents per unit."""

from services.catalog.costs import bag_cost

NEGOTIATED_RATE = 11


def bag_charge(units):
    return bag_cost(units, NEGOTIATED_RATE)
