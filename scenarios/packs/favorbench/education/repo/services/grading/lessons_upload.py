"""Grading uploads lessons to its archive, whose API accepts at most 10 per call."""

from services.courses.batching import batch_lessons


def lesson_archive_calls(items):
    return batch_lessons(items)
