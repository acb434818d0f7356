"""Statements charges cards at its negotiated rate of 11 cents per unit."""

from services.ledger.costs import card_cost

NEGOTIATED_RATE = 11


def card_charge(units):
    return card_cost(units, NEGOTIATED_RATE)
