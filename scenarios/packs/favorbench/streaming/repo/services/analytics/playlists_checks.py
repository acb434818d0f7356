"""Analytics checks whether playlists exist before it acts on them."""

from services.catalog.lookup import find_playlist


def playlist_exists(table, key):
    return find_playlist(table, key) is not None
