"""Recommendations's daily digest lists podcasts by id, as the shared listing gives them."""

from services.catalog.listing import list_podcasts


def podcast_digest_ids(rows):
    return [row["id"] for row in list_podcasts(rows)]
