"""Reminders keeps its own index of rooms, keyed by the shared record's `id`."""

from services.scheduling.records import room_record


def room_index_entry(key, status):
    record = room_record(key, status)
    return (record["id"], record["status"])
