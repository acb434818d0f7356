"""Inventory checks whether shipments exist before it acts on them."""

from services.platform.lookup import find_shipment


def shipment_exists(table, key):
    return find_shipment(table, key) is not None
