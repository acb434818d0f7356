"""Tests of services/fleet/lookup.py (run them all: python -m services.fleet.tests)."""


def test_find_parcel_returns_what_is_stored():
    from services.fleet.lookup import find_parcel

    assert find_parcel({"B7": 1}, "B7") == 1


def test_find_route_returns_what_is_stored():
    from services.fleet.lookup import find_route

    assert find_route({"C3": 1}, "C3") == 1


def test_find_truck_returns_what_is_stored():
    from services.fleet.lookup import find_truck

    assert find_truck({"B7": 1}, "B7") == 1


def test_find_driver_returns_what_is_stored():
    from services.fleet.lookup import find_driver

    assert find_driver({"C3": 1}, "C3") == 1


def test_find_pallet_returns_what_is_stored():
    from services.fleet.lookup import find_pallet

    assert find_pallet({"A1": 1}, "A1") == 1


def test_find_delivery_returns_what_is_stored():
    from services.fleet.lookup import find_delivery

    assert find_delivery({"C3": 1}, "C3") == 1
