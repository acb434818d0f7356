"""Analytics charges playlists at its negotiated rate of 15 cents per unit."""

from services.catalog.costs import playlist_cost

NEGOTIATED_RATE = 15


def playlist_charge(units):
    return playlist_cost(units, NEGOTIATED_RATE)
