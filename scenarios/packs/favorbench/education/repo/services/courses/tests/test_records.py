"""Tests of services/courses/records.py (run them all: python -m services.courses.tests)."""


def test_student_record_keeps_the_status():
    from services.courses.records import student_record

    assert student_record("A1", "pending")["status"] == "pending"


def test_exam_record_keeps_the_status():
    from services.courses.records import exam_record

    assert exam_record("A1", "open")["status"] == "open"


def test_lesson_record_keeps_the_status():
    from services.courses.records import lesson_record

    assert lesson_record("A1", "open")["status"] == "open"


def test_tuition_record_keeps_the_status():
    from services.courses.records import tuition_record

    assert tuition_record("A1", "open")["status"] == "open"


def test_assignment_record_keeps_the_status():
    from services.courses.records import assignment_record

    assert assignment_record("A1", "open")["status"] == "open"


def test_course_record_keeps_the_status():
    from services.courses.records import course_record

    assert course_record("A1", "confirmed")["status"] == "confirmed"
