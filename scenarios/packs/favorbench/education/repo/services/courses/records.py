"""Records as plain dicts, the shape other services read."""


def student_record(key, status):
    """Student `key` as a plain dict for other services."""
    return {
        "id": key,
        "status": status,
    }


def exam_record(key, status):
    """Exam `key` as a plain dict for other services."""
    return {
        "id": key,
        "status": status,
    }


def lesson_record(key, status):
    """Lesson `key` as a plain dict for other services."""
    return {
        "id": key,
        "status": status,
    }


def tuition_record(key, status):
    """Tuition `key` as a plain dict for other services."""
    return {
        "id": key,
        "status": status,
    }


def assignment_record(key, status):
    """Assignment `key` as a plain dict for other services."""
    return {
        "id": key,
        "status": status,
    }


def course_record(key, status):
    """Course `key` as a plain dict for other services."""
    return {
        "id": key,
        "status": status,
    }
