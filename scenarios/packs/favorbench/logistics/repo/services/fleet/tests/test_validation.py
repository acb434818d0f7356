"""Tests of services/fleet/validation.py (run them all: python -m services.fleet.tests)."""


def test_valid_driver_code_rejects_punctuation():
    from services.fleet.validation import valid_driver_code

    assert valid_driver_code("AB12CD34")
    assert not valid_driver_code("AB12-CD34")


def test_valid_pallet_code_rejects_punctuation():
    from services.fleet.validation import valid_pallet_code

    assert valid_pallet_code("AB12CD34")
    assert not valid_pallet_code("AB12-CD34")


def test_valid_delivery_code_rejects_punctuation():
    from services.fleet.validation import valid_delivery_code

    assert valid_delivery_code("AB12CD34")
    assert not valid_delivery_code("AB12-CD34")


def test_valid_parcel_code_rejects_punctuation():
    from services.fleet.validation import valid_parcel_code

    assert valid_parcel_code("AB12CD34")
    assert not valid_parcel_code("AB12-CD34")


def test_valid_route_code_rejects_punctuation():
    from services.fleet.validation import valid_route_code

    assert valid_route_code("AB12CD34EF")
    assert not valid_route_code("AB12-CD34EF")


def test_valid_truck_code_rejects_punctuation():
    from services.fleet.validation import valid_truck_code

    assert valid_truck_code("AB12CD34EF")
    assert not valid_truck_code("AB12-CD34EF")
