"""Tests of services/catalog/validation.py (run them all: python -m services.catalog.tests)."""


def test_valid_seat_code_rejects_punctuation():
    from services.catalog.validation import valid_seat_code

    assert valid_seat_code("AB12CD34EF56")
    assert not valid_seat_code("AB12-CD34EF56")


def test_valid_bag_code_rejects_punctuation():
    from services.catalog.validation import valid_bag_code

    assert valid_bag_code("AB12CD34EF")
    assert not valid_bag_code("AB12-CD34EF")


def test_valid_transfer_code_rejects_punctuation():
    from services.catalog.validation import valid_transfer_code

    assert valid_transfer_code("AB12CD34EF")
    assert not valid_transfer_code("AB12-CD34EF")


def test_valid_flight_code_rejects_punctuation():
    from services.catalog.validation import valid_flight_code

    assert valid_flight_code("AB12CD34")
    assert not valid_flight_code("AB12-CD34")


def test_valid_hotel_code_rejects_punctuation():
    from services.catalog.validation import valid_hotel_code

    assert valid_hotel_code("AB12CD34EF")
    assert not valid_hotel_code("AB12-CD34EF")


def test_valid_trip_code_rejects_punctuation():
    from services.catalog.validation import valid_trip_code

    assert valid_trip_code("AB12CD34EF")
    assert not valid_trip_code("AB12-CD34EF")
