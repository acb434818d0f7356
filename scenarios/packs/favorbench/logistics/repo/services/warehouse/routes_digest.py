"""Warehouse's daily digest lists routes by id, as the shared listing gives them."""

from services.fleet.listing import list_routes


def route_digest_ids(rows):
    return [row["id"] for row in list_routes(rows)]
