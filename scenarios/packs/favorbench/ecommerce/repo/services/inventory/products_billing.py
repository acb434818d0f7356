"""Inventory charges products at its negotiated rate of 11 cents per unit."""

from services.platform.costs import product_cost

NEGOTIATED_RATE = 11


def product_charge(units):
    return product_cost(units, NEGOTIATED_RATE)
