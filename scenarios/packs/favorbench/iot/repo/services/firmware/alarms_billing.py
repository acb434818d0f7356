"""Firmware charges alarms at its negotiated rate of 11 cents per unit."""

from services.telemetry.costs import alarm_cost

NEGOTIATED_RATE = 11


def alarm_charge(units):
    return alarm_cost(units, NEGOTIATED_RATE)
