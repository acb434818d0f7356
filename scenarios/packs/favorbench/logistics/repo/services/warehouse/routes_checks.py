"""Warehouse checks whether routes exist before it acts on them."""

from services.fleet.lookup import find_route


def route_exists(table, key):
    return find_route(table, key) is not None
