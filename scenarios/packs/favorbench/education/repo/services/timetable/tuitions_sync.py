"""Timetable keeps its own index of tuitions, keyed by the shared record's `id`."""

from services.courses.records import tuition_record


def tuition_index_entry(key, status):
    record = tuition_record(key, status)
    return (record["id"], record["status"])
