"""Reporting keeps its own index of refunds, keyed by the shared record's `id`."""

from services.platform.records import refund_record


def refund_index_entry(key, status):
    record = refund_record(key, status)
    return (record["id"], record["status"])
