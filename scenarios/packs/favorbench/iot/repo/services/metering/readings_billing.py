"""Metering charges readings at its negotiated rate of 15 cents per unit."""

from services.telemetry.costs import reading_cost

NEGOTIATED_RATE = 15


def reading_charge(units):
    return reading_cost(units, NEGOTIATED_RATE)
