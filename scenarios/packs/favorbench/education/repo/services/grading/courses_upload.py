"""Grading uploads courses to its archive, whose API accepts at most 20 per call."""

from services.courses.batching import batch_courses


def course_archive_calls(items):
    return batch_courses(items)
