"""Alerts's daily digest lists gateways by id, as the shared listing gives them."""

from services.telemetry.listing import list_gateways


def gateway_digest_ids(rows):
    return [row["id"] for row in list_gateways(rows)]
