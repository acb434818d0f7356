"""Notifications charges carts at its negotiated rate of 11 cents per unit."""

from services.platform.costs import cart_cost

NEGOTIATED_RATE = 11


def cart_charge(units):
    return cart_cost(units, NEGOTIATED_RATE)
