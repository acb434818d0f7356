"""Grading checks whether lessons exist before it acts on them."""

from services.courses.lookup import find_lesson


def lesson_exists(table, key):
    return find_lesson(table, key) is not None
