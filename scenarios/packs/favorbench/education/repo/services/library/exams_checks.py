"""Library checks whether exams exist before it acts on them."""

from services.courses.lookup import find_exam


def exam_exists(table, key):
    return find_exam(table, key) is not None
