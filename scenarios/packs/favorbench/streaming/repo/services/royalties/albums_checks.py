"""Royalties checks whether albums exist before it acts on them."""

from services.catalog.lookup import find_album


def album_exists(table, key):
    return find_album(table, key) is not None
