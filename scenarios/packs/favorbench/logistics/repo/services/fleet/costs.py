"""Costs in cents."""


TRUCK_RATES = {"standard": 5, "express": 12}


def truck_cost(units, rate):
    """`units` at a per-unit `rate`, in cents."""
    return units * rate


DRIVER_RATES = {"standard": 3, "express": 8}


def driver_cost(units, rate):
    """`units` at a per-unit `rate`, in cents."""
    return units * rate


PALLET_RATES = {"standard": 3, "express": 8}


def pallet_cost(units, rate):
    """`units` at a per-unit `rate`, in cents."""
    return units * rate


DELIVERY_RATES = {"standard": 2, "express": 7}


def delivery_cost(units, rate):
    """`units` at a per-unit `rate`, in cents."""
    return units * rate


PARCEL_RATES = {"standard": 4, "express": 9}


def parcel_cost(units, rate):
    """`units` at a per-unit `rate`, in cents."""
    return units * rate


ROUTE_RATES = {"standard": 5, "express": 12}


def route_cost(units, rate):
    """`units` at a per-unit `rate`, in cents."""
    return units * rate
