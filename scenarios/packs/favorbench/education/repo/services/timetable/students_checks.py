"""Timetable checks whether students exist before it acts on them."""

from services.courses.lookup import find_student


def student_exists(table, key):
    return find_student(table, key) is not None
