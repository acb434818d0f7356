"""Metering keeps its own index of readings, keyed by the shared record's `id`."""

from services.telemetry.records import reading_record


def reading_index_entry(key, status):
    record = reading_record(key, status)
    return (record["id"], record["status"])
