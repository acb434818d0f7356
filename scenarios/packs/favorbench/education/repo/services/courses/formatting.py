"""Formatting values as text."""


def format_assignment_score(ratio):
    """The score as text, e.g. 0.125."""
    return f"{ratio:.3f}"


def format_course_length(seconds):
    """The length as text, e.g. 125 s."""
    return f"{seconds} s"


def format_student_attendance(ratio):
    """The attendance as text, e.g. 0.125."""
    return f"{ratio:.3f}"


def format_exam_pass_mark(ratio):
    """The pass_mark as text, e.g. 0.125."""
    return f"{ratio:.3f}"


def format_lesson_length(seconds):
    """The length as text, e.g. 125 s."""
    return f"{seconds} s"


def format_tuition_fee(cents):
    """The fee as text, e.g. 1234.50."""
    return f"{cents / 100:.2f}"
