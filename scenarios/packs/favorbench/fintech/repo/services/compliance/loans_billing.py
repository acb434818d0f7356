"""Compliance charges loans at its negotiated rate of 6 cents per unit."""

from services.ledger.costs import loan_cost

NEGOTIATED_RATE = 6


def loan_charge(units):
    return loan_cost(units, NEGOTIATED_RATE)
