"""Tests of services/fleet/records.py (run them all: python -m services.fleet.tests)."""


def test_route_record_keeps_the_status():
    from services.fleet.records import route_record

    assert route_record("A1", "confirmed")["status"] == "confirmed"


def test_truck_record_keeps_the_status():
    from services.fleet.records import truck_record

    assert truck_record("A1", "confirmed")["status"] == "confirmed"


def test_driver_record_keeps_the_status():
    from services.fleet.records import driver_record

    assert driver_record("A1", "confirmed")["status"] == "confirmed"


def test_pallet_record_keeps_the_status():
    from services.fleet.records import pallet_record

    assert pallet_record("A1", "pending")["status"] == "pending"


def test_delivery_record_keeps_the_status():
    from services.fleet.records import delivery_record

    assert delivery_record("A1", "open")["status"] == "open"


def test_parcel_record_keeps_the_status():
    from services.fleet.records import parcel_record

    assert parcel_record("A1", "active")["status"] == "active"
