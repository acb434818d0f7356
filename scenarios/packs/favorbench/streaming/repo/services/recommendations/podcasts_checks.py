"""Recommendations checks whether podcasts exist before it acts on them."""

from services.catalog.lookup import find_podcast


def podcast_exists(table, key):
    return find_podcast(table, key) is not None
