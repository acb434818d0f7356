"""Royalties charges subscriptions at its negotiated rate of 15 cents per unit."""

from services.catalog.costs import subscription_cost

NEGOTIATED_RATE = 15


def subscription_charge(units):
    return subscription_cost(units, NEGOTIATED_RATE)
