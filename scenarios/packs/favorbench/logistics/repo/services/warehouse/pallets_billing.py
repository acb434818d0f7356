"""Warehouse charges pallets at its negotiated rate of 15 cents per unit."""

from services.fleet.costs import pallet_cost

NEGOTIATED_RATE = 15


def pallet_charge(units):
    return pallet_cost(units, NEGOTIATED_RATE)
