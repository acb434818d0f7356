"""Tracking keeps its own index of drivers, keyed by the shared record's `id`."""

from services.fleet.records import driver_record


def driver_index_entry(key, status):
    record = driver_record(key, status)
    return (record["id"], record["status"])
