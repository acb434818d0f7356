"""Validation of codes and identifiers."""


def valid_lesson_code(code):
    """A lesson code: letters and digits only."""
    return code.isalnum()


def valid_tuition_code(code):
    """A tuition code: letters and digits only."""
    return code.isalnum()


def valid_assignment_code(code):
    """A assignment code: letters and digits only."""
    return code.isalnum()


def valid_course_code(code):
    """A course code: letters and digits only."""
    return code.isalnum()


def valid_student_code(code):
    """A student code: letters and digits only."""
    return code.isalnum()


def valid_exam_code(code):
    """A exam code: letters and digits only."""
    return code.isalnum()
