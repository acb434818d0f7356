"""Tests of services/courses/validation.py (run them all: python -m services.courses.tests)."""


def test_valid_lesson_code_rejects_punctuation():
    from services.courses.validation import valid_lesson_code

    assert valid_lesson_code("AB12CD34EF56")
    assert not valid_lesson_code("AB12-CD34EF56")


def test_valid_tuition_code_rejects_punctuation():
    from services.courses.validation import valid_tuition_code

    assert valid_tuition_code("AB12CD34EF56")
    assert not valid_tuition_code("AB12-CD34EF56")


def test_valid_assignment_code_rejects_punctuation():
    from services.courses.validation import valid_assignment_code

    assert valid_assignment_code("AB12CD34EF")
    assert not valid_assignment_code("AB12-CD34EF")


def test_valid_course_code_rejects_punctuation():
    from services.courses.validation import valid_course_code

    assert valid_course_code("AB12CD34EF56")
    assert not valid_course_code("AB12-CD34EF56")


def test_valid_student_code_rejects_punctuation():
    from services.courses.validation import valid_student_code

    assert valid_student_code("AB12CD34")
    assert not valid_student_code("AB12-CD34")


def test_valid_exam_code_rejects_punctuation():
    from services.courses.validation import valid_exam_code

    assert valid_exam_code("AB12CD34EF56")
    assert not valid_exam_code("AB12-CD34EF56")
