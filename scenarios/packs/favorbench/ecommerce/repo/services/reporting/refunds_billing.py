"""Reporting charges refunds at its negotiated rate of 15 cents per unit."""

from services.platform.costs import refund_cost

NEGOTIATED_RATE = 15


def refund_charge(units):
    return refund_cost(units, NEGOTIATED_RATE)
