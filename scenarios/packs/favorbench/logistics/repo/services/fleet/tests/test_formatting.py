"""Tests of services/fleet/formatting.py (run them all: python -m services.fleet.tests)."""


def test_format_delivery_distance_gives_distinct_text():
    from services.fleet.formatting import format_delivery_distance

    assert isinstance(format_delivery_distance(2500), str)
    assert format_delivery_distance(2500) != format_delivery_distance(5000)


def test_format_parcel_weight_gives_distinct_text():
    from services.fleet.formatting import format_parcel_weight

    assert isinstance(format_parcel_weight(1500), str)
    assert format_parcel_weight(1500) != format_parcel_weight(3000)


def test_format_route_length_gives_distinct_text():
    from services.fleet.formatting import format_route_length

    assert isinstance(format_route_length(2500), str)
    assert format_route_length(2500) != format_route_length(5000)


def test_format_truck_load_gives_distinct_text():
    from services.fleet.formatting import format_truck_load

    assert isinstance(format_truck_load(1500), str)
    assert format_truck_load(1500) != format_truck_load(3000)


def test_format_driver_shift_gives_distinct_text():
    from services.fleet.formatting import format_driver_shift

    assert isinstance(format_driver_shift(125), str)
    assert format_driver_shift(125) != format_driver_shift(250)


def test_format_pallet_weight_gives_distinct_text():
    from services.fleet.formatting import format_pallet_weight

    assert isinstance(format_pallet_weight(1500), str)
    assert format_pallet_weight(1500) != format_pallet_weight(3000)
