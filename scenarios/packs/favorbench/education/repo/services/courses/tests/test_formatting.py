"""Tests of services/courses/formatting.py (run them all: python -m services.courses.tests)."""


def test_format_assignment_score_gives_distinct_text():
    from services.courses.formatting import format_assignment_score

    assert isinstance(format_assignment_score(0.125), str)
    assert format_assignment_score(0.125) != format_assignment_score(0.25)


def test_format_course_length_gives_distinct_text():
    from services.courses.formatting import format_course_length

    assert isinstance(format_course_length(125), str)
    assert format_course_length(125) != format_course_length(250)


def test_format_student_attendance_gives_distinct_text():
    from services.courses.formatting import format_student_attendance

    assert isinstance(format_student_attendance(0.125), str)
    assert format_student_attendance(0.125) != format_student_attendance(0.25)


def test_format_exam_pass_mark_gives_distinct_text():
    from services.courses.formatting import format_exam_pass_mark

    assert isinstance(format_exam_pass_mark(0.125), str)
    assert format_exam_pass_mark(0.125) != format_exam_pass_mark(0.25)


def test_format_lesson_length_gives_distinct_text():
    from services.courses.formatting import format_lesson_length

    assert isinstance(format_lesson_length(125), str)
    assert format_lesson_length(125) != format_lesson_length(250)


def test_format_tuition_fee_gives_distinct_text():
    from services.courses.formatting import format_tuition_fee

    assert isinstance(format_tuition_fee(123450), str)
    assert format_tuition_fee(123450) != format_tuition_fee(246900)
