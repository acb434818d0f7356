"""Timetable charges tuitions at its negotiated rate of 15 cents per unit."""

from services.courses.costs import tuition_cost

NEGOTIATED_RATE = 15


def tuition_charge(units):
    return tuition_cost(units, NEGOTIATED_RATE)
