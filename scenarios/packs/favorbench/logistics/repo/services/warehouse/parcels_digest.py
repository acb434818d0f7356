"""Warehouse's daily digest lists parcels by id, as the shared listing gives them."""

from services.fleet.listing import list_parcels


def parcel_digest_ids(rows):
    return [row["id"] for row in list_parcels(rows)]
