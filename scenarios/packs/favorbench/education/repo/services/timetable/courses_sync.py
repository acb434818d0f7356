"""Timetable keeps its own index of courses, keyed by the shared record's `id`."""

from services.courses.records import course_record


def course_index_entry(key, status):
    record = course_record(key, status)
    return (record["id"], record["status"])
