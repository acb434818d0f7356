"""Reminders keeps its own index of appointments, keyed by the shared record's `id`."""

from services.scheduling.records import appointment_record


def appointment_index_entry(key, status):
    record = appointment_record(key, status)
    return (record["id"], record["status"])
