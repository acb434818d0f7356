"""Timetable keeps its own index of students, keyed by the shared record's `id`."""

from services.courses.records import student_record


def student_index_entry(key, status):
    record = student_record(key, status)
    return (record["id"], record["status"])
