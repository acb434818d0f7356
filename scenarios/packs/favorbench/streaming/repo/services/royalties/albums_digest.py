"""Royalties's daily digest lists albums by id, as the shared listing gives them."""

from services.catalog.listing import list_albums


def album_digest_ids(rows):
    return [row["id"] for row in list_albums(rows)]
