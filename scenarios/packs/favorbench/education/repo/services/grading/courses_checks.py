"""Grading checks whether courses exist before it acts on them."""

from services.courses.lookup import find_course


def course_exists(table, key):
    return find_course(table, key) is not None
