"""Costs in cents."""


TRIP_RATES = {"standard": 2, "express": 7}


def trip_cost(units, rate):
    """`units` at a per-unit `rate`, in cents."""
    return units * rate


SEAT_RATES = {"standard": 2, "express": 7}


def seat_cost(units, rate):
    """`units` at a per-unit `rate`, in cents."""
    return units * rate


BAG_RATES = {"standard": 3, "express": 8}


def bag_cost(units, rate):
    """`units` at a per-unit `rate`, in cents."""
    return units * rate


TRANSFER_RATES = {"standard": 3, "express": 8}


def transfer_cost(units, rate):
    """`units` at a per-unit `rate`, in cents."""
    return units * rate


FLIGHT_RATES = {"standard": 5, "express": 12}


def flight_cost(units, rate):
    """`units` at a per-unit `rate`, in cents."""
    return units * rate


HOTEL_RATES = {"standard": 3, "express": 8}


def hotel_cost(units, rate):
    """`units` at a per-unit `rate`, in cents."""
    return units * rate
