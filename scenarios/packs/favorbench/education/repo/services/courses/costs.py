"""Costs in cents."""


EXAM_RATES = {"standard": 3, "express": 8}


def exam_cost(units, rate):
    """`units` at a per-unit `rate`, in cents."""
    return units * rate


LESSON_RATES = {"standard": 5, "express": 12}


def lesson_cost(units, rate):
    """`units` at a per-unit `rate`, in cents."""
    return units * rate


TUITION_RATES = {"standard": 4, "express": 9}


def tuition_cost(units, rate):
    """`units` at a per-unit `rate`, in cents."""
    return units * rate


ASSIGNMENT_RATES = {"standard": 2, "express": 7}


def assignment_cost(units, rate):
    """`units` at a per-unit `rate`, in cents."""
    return units * rate


COURSE_RATES = {"standard": 5, "express": 12}


def course_cost(units, rate):
    """`units` at a per-unit `rate`, in cents."""
    return units * rate


STUDENT_RATES = {"standard": 3, "express": 8}


def student_cost(units, rate):
    """`units` at a per-unit `rate`, in cents."""
    return units * rate
