"""Timetable uploads students to its archive, whose API accepts at most 25 per call."""

from services.courses.batching import batch_students


def student_archive_calls(items):
    return batch_students(items)
