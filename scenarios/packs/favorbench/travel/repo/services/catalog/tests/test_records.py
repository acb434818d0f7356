"""Tests of services/catalog/records.py (run them all: python -m services.catalog.tests)."""


def test_hotel_record_keeps_the_status():
    from services.catalog.records import hotel_record

    assert hotel_record("A1", "active")["status"] == "active"


def test_trip_record_keeps_the_status():
    from services.catalog.records import trip_record

    assert trip_record("A1", "active")["status"] == "active"


def test_seat_record_keeps_the_status():
    from services.catalog.records import seat_record

    assert seat_record("A1", "confirmed")["status"] == "confirmed"


def test_bag_record_keeps_the_status():
    from services.catalog.records import bag_record

    assert bag_record("A1", "pending")["status"] == "pending"


def test_transfer_record_keeps_the_status():
    from services.catalog.records import transfer_record

    assert transfer_record("A1", "active")["status"] == "active"


def test_flight_record_keeps_the_status():
    from services.catalog.records import flight_record

    assert flight_record("A1", "active")["status"] == "active"
