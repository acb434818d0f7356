"""Reminders keeps its own index of visits, keyed by the shared record's `id`."""

from services.scheduling.records import visit_record


def visit_index_entry(key, status):
    record = visit_record(key, status)
    return (record["id"], record["status"])
