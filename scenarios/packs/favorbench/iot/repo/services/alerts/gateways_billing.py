"""Alerts charges gateways at its negotiated rate of 11 cents per unit."""

from services.telemetry.costs import gateway_cost

NEGOTIATED_RATE = 11


def gateway_charge(units):
    return gateway_cost(units, NEGOTIATED_RATE)
