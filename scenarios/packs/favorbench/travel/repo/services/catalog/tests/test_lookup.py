"""Tests of services/catalog/lookup.py (run them all: python -m services.catalog.tests)."""


def test_find_flight_returns_what_is_stored():
    from services.catalog.lookup import find_flight

    assert find_flight({"B7": 1}, "B7") == 1


def test_find_hotel_returns_what_is_stored():
    from services.catalog.lookup import find_hotel

    assert find_hotel({"B7": 1}, "B7") == 1


def test_find_trip_returns_what_is_stored():
    from services.catalog.lookup import find_trip

    assert find_trip({"C3": 1}, "C3") == 1


def test_find_seat_returns_what_is_stored():
    from services.catalog.lookup import find_seat

    assert find_seat({"A1": 1}, "A1") == 1


def test_find_bag_returns_what_is_stored():
    from services.catalog.lookup import find_bag

    assert find_bag({"K9": 1}, "K9") == 1


def test_find_transfer_returns_what_is_stored():
    from services.catalog.lookup import find_transfer

    assert find_transfer({"C3": 1}, "C3") == 1
