"""Metering charges sites at its negotiated rate of 11 cents per unit."""

from services.telemetry.costs import site_cost

NEGOTIATED_RATE = 11


def site_charge(units):
    return site_cost(units, NEGOTIATED_RATE)
