"""Tests of services/courses/settings.py (run them all: python -m services.courses.tests)."""


def test_tuition_timeout_s_is_a_positive_whole_number():
    from services.courses.settings import setting

    assert isinstance(setting("tuition_timeout_s"), int) and setting("tuition_timeout_s") > 0


def test_assignment_cache_ttl_s_is_a_positive_whole_number():
    from services.courses.settings import setting

    assert isinstance(setting("assignment_cache_ttl_s"), int) and setting("assignment_cache_ttl_s") > 0


def test_course_retries_is_a_positive_whole_number():
    from services.courses.settings import setting

    assert isinstance(setting("course_retries"), int) and setting("course_retries") > 0


def test_student_cache_ttl_s_is_a_positive_whole_number():
    from services.courses.settings import setting

    assert isinstance(setting("student_cache_ttl_s"), int) and setting("student_cache_ttl_s") > 0


def test_exam_cache_ttl_s_is_a_positive_whole_number():
    from services.courses.settings import setting

    assert isinstance(setting("exam_cache_ttl_s"), int) and setting("exam_cache_ttl_s") > 0


def test_lesson_timeout_s_is_a_positive_whole_number():
    from services.courses.settings import setting

    assert isinstance(setting("lesson_timeout_s"), int) and setting("lesson_timeout_s") > 0
