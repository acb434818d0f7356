"""Invoicing's daily digest lists trucks by id, as the shared listing gives them."""

from services.fleet.listing import list_trucks


def truck_digest_ids(rows):
    return [row["id"] for row in list_trucks(rows)]
