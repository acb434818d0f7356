"""Recommendations charges podcasts at its negotiated rate of 15 cents per unit."""

from services.catalog.costs import podcast_cost

NEGOTIATED_RATE = 15


def podcast_charge(units):
    return podcast_cost(units, NEGOTIATED_RATE)
