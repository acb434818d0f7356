"""Tracking's daily digest lists drivers by id, as the shared listing gives them."""

from services.fleet.listing import list_drivers


def driver_digest_ids(rows):
    return [row["id"] for row in list_drivers(rows)]
