"""Invoicing charges deliveries at its negotiated rate of 11 cents per unit."""

from services.fleet.costs import delivery_cost

NEGOTIATED_RATE = 11


def delivery_charge(units):
    return delivery_cost(units, NEGOTIATED_RATE)
