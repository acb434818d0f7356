"""Benefits charges expenses at its negotiated rate of 11 cents per unit."""

from services.compensation.costs import expense_cost

NEGOTIATED_RATE = 11


def expense_charge(units):
    return expense_cost(units, NEGOTIATED_RATE)
