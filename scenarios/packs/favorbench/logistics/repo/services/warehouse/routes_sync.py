"""Warehouse keeps its own index of routes, keyed by the shared record's `id`."""

from services.fleet.records import route_record


def route_index_entry(key, status):
    record = route_record(key, status)
    return (record["id"], record["status"])
