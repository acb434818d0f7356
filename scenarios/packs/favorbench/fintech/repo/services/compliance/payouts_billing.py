"""Compliance charges payouts at its negotiated rate of 15 cents per unit."""

from services.ledger.costs import payout_cost

NEGOTIATED_RATE = 15


def payout_charge(units):
    return payout_cost(units, NEGOTIATED_RATE)
