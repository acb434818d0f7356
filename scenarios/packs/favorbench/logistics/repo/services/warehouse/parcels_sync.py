"""Warehouse keeps its own index of parcels, keyed by the shared record's `id`."""

from services.fleet.records import parcel_record


def parcel_index_entry(key, status):
    record = parcel_record(key, status)
    return (record["id"], record["status"])
