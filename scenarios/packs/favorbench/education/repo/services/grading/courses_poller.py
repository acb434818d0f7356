"""Grading polls courses and is sized for 3 (attempts per course call)."""

from services.courses.settings import setting


def course_poll_retries():
    return setting("course_retries")
