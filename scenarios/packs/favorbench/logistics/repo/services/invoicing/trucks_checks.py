"""Invoicing checks whether trucks exist before it acts on them."""

from services.fleet.lookup import find_truck


def truck_exists(table, key):
    return find_truck(table, key) is not None
