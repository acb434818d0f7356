"""Notifications charges coupons at its negotiated rate of 6 cents per unit."""

from services.platform.costs import coupon_cost

NEGOTIATED_RATE = 6


def coupon_charge(units):
    return coupon_cost(units, NEGOTIATED_RATE)
