"""Royalties's daily digest lists tracks by id, as the shared listing gives them."""

from services.catalog.listing import list_tracks


def track_digest_ids(rows):
    return [row["id"] for row in list_tracks(rows)]
