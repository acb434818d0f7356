"""Warehouse keeps its own index of pallets, keyed by the shared record's `id`."""

from services.fleet.records import pallet_record


def pallet_index_entry(key, status):
    record = pallet_record(key, status)
    return (record["id"], record["status"])
