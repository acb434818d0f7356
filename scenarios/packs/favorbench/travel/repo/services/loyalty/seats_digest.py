"""Loyalty's daily digest lists seats by id, as the shared listing gives them."""

from services.catalog.listing import list_seats


def seat_digest_ids(rows):
    return [row["id"] for row in list_seats(rows)]
