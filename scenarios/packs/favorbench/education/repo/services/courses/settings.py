"""Shared settings: every service reads them by name."""

DEFAULTS = {
    "tuition_timeout_s": 30,  # seconds tuitions calls wait
    "assignment_cache_ttl_s": 300,  # seconds a cached assignment stays
    "course_retries": 3,  # attempts per course call
    "student_cache_ttl_s": 300,  # seconds a cached student stays
    "exam_cache_ttl_s": 300,  # seconds a cached exam stays
    "lesson_timeout_s": 30,  # seconds lessons calls wait
}


def setting(name):
    """A shared setting by name."""
    return DEFAULTS[name]
