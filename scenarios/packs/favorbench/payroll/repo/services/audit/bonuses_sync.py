"""Audit keeps its own index of bonuses, keyed by the shared record's `id`."""

from services.compensation.records import bonus_record


def bonus_index_entry(key, status):
    record = bonus_record(key, status)
    return (record["id"], record["status"])
