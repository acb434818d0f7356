"""Batching helpers: lists split into API-sized batches."""


COURSE_BATCH_SIZE = 20


def batch_courses(items):
    """Courses in batches of COURSE_BATCH_SIZE, in their order."""
    return [items[i : i + COURSE_BATCH_SIZE] for i in range(0, len(items), COURSE_BATCH_SIZE)]


STUDENT_BATCH_SIZE = 25


def batch_students(items):
    """Students in batches of STUDENT_BATCH_SIZE, in their order."""
    return [items[i : i + STUDENT_BATCH_SIZE] for i in range(0, len(items), STUDENT_BATCH_SIZE)]


EXAM_BATCH_SIZE = 20


def batch_exams(items):
    """Exams in batches of EXAM_BATCH_SIZE, in their order."""
    return [items[i : i + EXAM_BATCH_SIZE] for i in range(0, len(items), EXAM_BATCH_SIZE)]


LESSON_BATCH_SIZE = 10


def batch_lessons(items):
    """Lessons in batches of LESSON_BATCH_SIZE, in their order."""
    return [items[i : i + LESSON_BATCH_SIZE] for i in range(0, len(items), LESSON_BATCH_SIZE)]


TUITION_BATCH_SIZE = 25


def batch_tuitions(items):
    """Tuitions in batches of TUITION_BATCH_SIZE, in their order."""
    return [items[i : i + TUITION_BATCH_SIZE] for i in range(0, len(items), TUITION_BATCH_SIZE)]


ASSIGNMENT_BATCH_SIZE = 20


def batch_assignments(items):
    """Assignments in batches of ASSIGNMENT_BATCH_SIZE, in their order."""
    return [items[i : i + ASSIGNMENT_BATCH_SIZE] for i in range(0, len(items), ASSIGNMENT_BATCH_SIZE)]
