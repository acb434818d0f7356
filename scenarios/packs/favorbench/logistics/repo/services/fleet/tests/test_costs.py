"""Tests of services/fleet/costs.py (run them all: python -m services.fleet.tests)."""


def test_truck_rates_are_positive_cents():
    from services.fleet.costs import TRUCK_RATES

    assert set(TRUCK_RATES) == {"standard", "express"}
    assert all(isinstance(v, int) and v > 0 for v in TRUCK_RATES.values())


def test_driver_rates_are_positive_cents():
    from services.fleet.costs import DRIVER_RATES

    assert set(DRIVER_RATES) == {"standard", "express"}
    assert all(isinstance(v, int) and v > 0 for v in DRIVER_RATES.values())


def test_pallet_rates_are_positive_cents():
    from services.fleet.costs import PALLET_RATES

    assert set(PALLET_RATES) == {"standard", "express"}
    assert all(isinstance(v, int) and v > 0 for v in PALLET_RATES.values())


def test_delivery_rates_are_positive_cents():
    from services.fleet.costs import DELIVERY_RATES

    assert set(DELIVERY_RATES) == {"standard", "express"}
    assert all(isinstance(v, int) and v > 0 for v in DELIVERY_RATES.values())


def test_parcel_rates_are_positive_cents():
    from services.fleet.costs import PARCEL_RATES

    assert set(PARCEL_RATES) == {"standard", "express"}
    assert all(isinstance(v, int) and v > 0 for v in PARCEL_RATES.values())


def test_route_rates_are_positive_cents():
    from services.fleet.costs import ROUTE_RATES

    assert set(ROUTE_RATES) == {"standard", "express"}
    assert all(isinstance(v, int) and v > 0 for v in ROUTE_RATES.values())
