"""Helpdesk charges contacts at its negotiated rate of 6 cents per unit."""

from services.contacts.costs import contact_cost

NEGOTIATED_RATE = 6


def contact_charge(units):
    return contact_cost(units, NEGOTIATED_RATE)
