"""Library charges exams at its negotiated rate of 15 cents per unit."""

from services.courses.costs import exam_cost

NEGOTIATED_RATE = 15


def exam_charge(units):
    return exam_cost(units, NEGOTIATED_RATE)
