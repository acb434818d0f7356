"""Marketing charges campaigns at its negotiated rate of 6 cents per unit."""

from services.contacts.costs import campaign_cost

NEGOTIATED_RATE = 6


def campaign_charge(units):
    return campaign_cost(units, NEGOTIATED_RATE)
