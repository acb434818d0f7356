"""Tests of services/courses/lookup.py (run them all: python -m services.courses.tests)."""


def test_find_course_returns_what_is_stored():
    from services.courses.lookup import find_course

    assert find_course({"C3": 1}, "C3") == 1


def test_find_student_returns_what_is_stored():
    from services.courses.lookup import find_student

    assert find_student({"B7": 1}, "B7") == 1


def test_find_exam_returns_what_is_stored():
    from services.courses.lookup import find_exam

    assert find_exam({"K9": 1}, "K9") == 1


def test_find_lesson_returns_what_is_stored():
    from services.courses.lookup import find_lesson

    assert find_lesson({"A1": 1}, "A1") == 1


def test_find_tuition_returns_what_is_stored():
    from services.courses.lookup import find_tuition

    assert find_tuition({"B7": 1}, "B7") == 1


def test_find_assignment_returns_what_is_stored():
    from services.courses.lookup import find_assignment

    assert find_assignment({"C3": 1}, "C3") == 1
