"""Timetable polls tuitions and is sized for 30 (seconds tuitions calls wait)."""

from services.courses.settings import setting


def tuition_poll_timeout_s():
    return setting("tuition_timeout_s")
