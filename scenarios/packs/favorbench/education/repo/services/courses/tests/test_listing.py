"""Tests of services/courses/listing.py (run them all: python -m services.courses.tests)."""


def test_list_students_keeps_every_row():
    from services.courses.listing import list_students

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sorted(row['id'] for row in list_students(rows)) == [1, 2, 3]


def test_list_exams_keeps_every_row():
    from services.courses.listing import list_exams

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sorted(row['id'] for row in list_exams(rows)) == [1, 2, 3]


def test_list_lessons_keeps_every_row():
    from services.courses.listing import list_lessons

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sorted(row['id'] for row in list_lessons(rows)) == [1, 2, 3]


def test_list_tuitions_keeps_every_row():
    from services.courses.listing import list_tuitions

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sorted(row['id'] for row in list_tuitions(rows)) == [1, 2, 3]


def test_list_assignments_keeps_every_row():
    from services.courses.listing import list_assignments

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sorted(row['id'] for row in list_assignments(rows)) == [1, 2, 3]


def test_list_courses_keeps_every_row():
    from services.courses.listing import list_courses

    rows = [{"id": 2, "created": 10, "priority": 3, "name": "a"}, {"id": 1, "created": 30, "priority": 1, "name": "c"}, {"id": 3, "created": 20, "priority": 2, "name": "b"}]
    assert sorted(row['id'] for row in list_courses(rows)) == [1, 2, 3]
