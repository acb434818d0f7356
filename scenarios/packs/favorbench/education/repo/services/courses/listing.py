"""Listings: rows in a stable order."""


def list_students(rows):
    """Students sorted by id."""
    return sorted(rows, key=lambda row: row["id"])


def list_exams(rows):
    """Exams sorted by id."""
    return sorted(rows, key=lambda row: row["id"])


def list_lessons(rows):
    """Lessons sorted by id."""
    return sorted(rows, key=lambda row: row["id"])


def list_tuitions(rows):
    """Tuitions sorted by id."""
    return sorted(rows, key=lambda row: row["id"])


def list_assignments(rows):
    """Assignments sorted by id."""
    return sorted(rows, key=lambda row: row["id"])


def list_courses(rows):
    """Courses sorted by id."""
    return sorted(rows, key=lambda row: row["id"])
