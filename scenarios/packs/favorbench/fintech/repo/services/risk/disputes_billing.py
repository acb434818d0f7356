"""Risk charges disputes at its negotiated rate of 11 cents per unit."""

from services.ledger.costs import dispute_cost

NEGOTIATED_RATE = 11


def dispute_charge(units):
    return dispute_cost(units, NEGOTIATED_RATE)
