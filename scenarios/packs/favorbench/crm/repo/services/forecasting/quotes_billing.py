"""Forecasting charges quotes at its negotiated rate of 11 cents per unit."""

from services.contacts.costs import quote_cost

NEGOTIATED_RATE = 11


def quote_charge(units):
    return quote_cost(units, NEGOTIATED_RATE)
