"""Tests of services/courses/costs.py (run them all: python -m services.courses.tests)."""


def test_exam_rates_are_positive_cents():
    from services.courses.costs import EXAM_RATES

    assert set(EXAM_RATES) == {"standard", "express"}
    assert all(isinstance(v, int) and v > 0 for v in EXAM_RATES.values())


def test_lesson_rates_are_positive_cents():
    from services.courses.costs import LESSON_RATES

    assert set(LESSON_RATES) == {"standard", "express"}
    assert all(isinstance(v, int) and v > 0 for v in LESSON_RATES.values())


def test_tuition_rates_are_positive_cents():
    from services.courses.costs import TUITION_RATES

    assert set(TUITION_RATES) == {"standard", "express"}
    assert all(isinstance(v, int) and v > 0 for v in TUITION_RATES.values())


def test_assignment_rates_are_positive_cents():
    from services.courses.costs import ASSIGNMENT_RATES

    assert set(ASSIGNMENT_RATES) == {"standard", "express"}
    assert all(isinstance(v, int) and v > 0 for v in ASSIGNMENT_RATES.values())


def test_course_rates_are_positive_cents():
    from services.courses.costs import COURSE_RATES

    assert set(COURSE_RATES) == {"standard", "express"}
    assert all(isinstance(v, int) and v > 0 for v in COURSE_RATES.values())


def test_student_rates_are_positive_cents():
    from services.courses.costs import STUDENT_RATES

    assert set(STUDENT_RATES) == {"standard", "express"}
    assert all(isinstance(v, int) and v > 0 for v in STUDENT_RATES.values())
