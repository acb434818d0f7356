"""Analytics's daily digest lists playlists by id, as the shared listing gives them."""

from services.catalog.listing import list_playlists


def playlist_digest_ids(rows):
    return [row["id"] for row in list_playlists(rows)]
