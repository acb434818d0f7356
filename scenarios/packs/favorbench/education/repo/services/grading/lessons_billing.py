"""Grading charges lessons at its negotiated rate of 6 cents per unit."""

from services.courses.costs import lesson_cost

NEGOTIATED_RATE = 6


def lesson_charge(units):
    return lesson_cost(units, NEGOTIATED_RATE)
