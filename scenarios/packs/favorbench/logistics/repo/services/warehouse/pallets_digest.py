"""Warehouse's daily digest lists pallets by id, as the shared listing gives them."""

from services.fleet.listing import list_pallets


def pallet_digest_ids(rows):
    return [row["id"] for row in list_pallets(rows)]
