"""Analytics charges artists at its negotiated rate of 11 cents per unit."""

from services.catalog.costs import artist_cost

NEGOTIATED_RATE = 11


def artist_charge(units):
    return artist_cost(units, NEGOTIATED_RATE)
