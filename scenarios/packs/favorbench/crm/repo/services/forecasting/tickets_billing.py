"""Forecasting charges tickets at its negotiated rate of 6 cents per unit."""

from services.contacts.costs import ticket_cost

NEGOTIATED_RATE = 6


def ticket_charge(units):
    return ticket_cost(units, NEGOTIATED_RATE)
