"""Tests of services/catalog/costs.py (run them all: python -m services.catalog.tests)."""


def test_trip_rates_are_positive_cents():
    from services.catalog.costs import TRIP_RATES

    assert set(TRIP_RATES) == {"standard", "express"}
    assert all(isinstance(v, int) and v > 0 for v in TRIP_RATES.values())


def test_seat_rates_are_positive_cents():
    from services.catalog.costs import SEAT_RATES

    assert set(SEAT_RATES) == {"standard", "express"}
    assert all(isinstance(v, int) and v > 0 for v in SEAT_RATES.values())


def test_bag_rates_are_positive_cents():
    from services.catalog.costs import BAG_RATES

    assert set(BAG_RATES) == {"standard", "express"}
    assert all(isinstance(v, int) and v > 0 for v in BAG_RATES.values())


def test_transfer_rates_are_positive_cents():
    from services.catalog.costs import TRANSFER_RATES

    assert set(TRANSFER_RATES) == {"standard", "express"}
    assert all(isinstance(v, int) and v > 0 for v in TRANSFER_RATES.values())


def test_flight_rates_are_positive_cents():
    from services.catalog.costs import FLIGHT_RATES

    assert set(FLIGHT_RATES) == {"standard", "express"}
    assert all(isinstance(v, int) and v > 0 for v in FLIGHT_RATES.values())


def test_hotel_rates_are_positive_cents():
    from services.catalog.costs import HOTEL_RATES

    assert set(HOTEL_RATES) == {"standard", "express"}
    assert all(isinstance(v, int) and v > 0 for v in HOTEL_RATES.values())
