"""Inventory's daily digest lists shipments by id, as the shared listing gives them."""

from services.platform.listing import list_shipments


def shipment_digest_ids(rows):
    return [row["id"] for row in list_shipments(rows)]
