"""Tests of services/courses/batching.py (run them all: python -m services.courses.tests)."""


def test_batch_courses_keeps_every_item_in_order():
    from services.courses.batching import COURSE_BATCH_SIZE, batch_courses

    items = list(range(3 * COURSE_BATCH_SIZE + 1))
    batches = batch_courses(items)
    assert [x for batch in batches for x in batch] == items
    assert all(0 < len(batch) <= COURSE_BATCH_SIZE for batch in batches)


def test_batch_students_keeps_every_item_in_order():
    from services.courses.batching import STUDENT_BATCH_SIZE, batch_students

    items = list(range(3 * STUDENT_BATCH_SIZE + 1))
    batches = batch_students(items)
    assert [x for batch in batches for x in batch] == items
    assert all(0 < len(batch) <= STUDENT_BATCH_SIZE for batch in batches)


def test_batch_exams_keeps_every_item_in_order():
    from services.courses.batching import EXAM_BATCH_SIZE, batch_exams

    items = list(range(3 * EXAM_BATCH_SIZE + 1))
    batches = batch_exams(items)
    assert [x for batch in batches for x in batch] == items
    assert all(0 < len(batch) <= EXAM_BATCH_SIZE for batch in batches)


def test_batch_lessons_keeps_every_item_in_order():
    from services.courses.batching import LESSON_BATCH_SIZE, batch_lessons

    items = list(range(3 * LESSON_BATCH_SIZE + 1))
    batches = batch_lessons(items)
    assert [x for batch in batches for x in batch] == items
    assert all(0 < len(batch) <= LESSON_BATCH_SIZE for batch in batches)


def test_batch_tuitions_keeps_every_item_in_order():
    from services.courses.batching import TUITION_BATCH_SIZE, batch_tuitions

    items = list(range(3 * TUITION_BATCH_SIZE + 1))
    batches = batch_tuitions(items)
    assert [x for batch in batches for x in batch] == items
    assert all(0 < len(batch) <= TUITION_BATCH_SIZE for batch in batches)


def test_batch_assignments_keeps_every_item_in_order():
    from services.courses.batching import ASSIGNMENT_BATCH_SIZE, batch_assignments

    items = list(range(3 * ASSIGNMENT_BATCH_SIZE + 1))
    batches = batch_assignments(items)
    assert [x for batch in batches for x in batch] == items
    assert all(0 < len(batch) <= ASSIGNMENT_BATCH_SIZE for batch in batches)
