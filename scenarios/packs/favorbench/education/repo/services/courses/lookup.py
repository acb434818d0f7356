"""Lookups in plain dict tables."""


def find_course(table, key):
    """The course stored under `key` in `table`, or None when there is none."""
    return table.get(key)


def find_student(table, key):
    """The student stored under `key` in `table`, or None when there is none."""
    return table.get(key)


def find_exam(table, key):
    """The exam stored under `key` in `table`, or None when there is none."""
    return table.get(key)


def find_lesson(table, key):
    """The lesson stored under `key` in `table`, or None when there is none."""
    return table.get(key)


def find_tuition(table, key):
    """The tuition stored under `key` in `table`, or None when there is none."""
    return table.get(key)


def find_assignment(table, key):
    """The assignment stored under `key` in `table`, or None when there is none."""
    return table.get(key)
