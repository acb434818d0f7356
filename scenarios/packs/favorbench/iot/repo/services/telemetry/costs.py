"""Costs in cents."""


READING_RATES = {"standard": 2, "express": 7}


def reading_cost(units, rate):
    """`units` at a per-unit `rate`, in cents."""
    return units * rate


GATEWAY_RATES = {"standard": 4, "express": 9}


def gateway_cost(units, rate):
    """`units` at a per-unit `rate`, in cents."""
    return units * rate


ALARM_RATES = {"standard": 5, "express": 12}


def alarm_cost(units, rate):
    """`units` at a per-unit `rate`, in cents."""
    return units * rate


SITE_RATES = {"standard": 2, "express": 7}


def site_cost(units, rate):
    """`units` at a per-unit `rate`, in cents."""
    return units * rate


SENSOR_RATES = {"standard": 3, "express": 8}


def sensor_cost(units, rate):
    """`units` at a per-unit `rate`, in cents."""
    return units * rate


DEVICE_RATES = {"standard": 3, "express": 8}


def device_cost(units, rate):
    """`units` at a per-unit `rate`, in cents."""
    return units * rate
