"""Timetable polls students and is sized for 300 (seconds a cached student stays)."""

from services.courses.settings import setting


def student_poll_cache_ttl_s():
    return setting("student_cache_ttl_s")
