"""Tests of services/catalog/formatting.py (run them all: python -m services.catalog.tests)."""


def test_format_transfer_distance_gives_distinct_text():
    from services.catalog.formatting import format_transfer_distance

    assert isinstance(format_transfer_distance(2500), str)
    assert format_transfer_distance(2500) != format_transfer_distance(5000)


def test_format_flight_distance_gives_distinct_text():
    from services.catalog.formatting import format_flight_distance

    assert isinstance(format_flight_distance(2500), str)
    assert format_flight_distance(2500) != format_flight_distance(5000)


def test_format_hotel_rate_gives_distinct_text():
    from services.catalog.formatting import format_hotel_rate

    assert isinstance(format_hotel_rate(123450), str)
    assert format_hotel_rate(123450) != format_hotel_rate(246900)


def test_format_trip_length_gives_distinct_text():
    from services.catalog.formatting import format_trip_length

    assert isinstance(format_trip_length(125), str)
    assert format_trip_length(125) != format_trip_length(250)


def test_format_seat_price_gives_distinct_text():
    from services.catalog.formatting import format_seat_price

    assert isinstance(format_seat_price(123450), str)
    assert format_seat_price(123450) != format_seat_price(246900)


def test_format_bag_weight_gives_distinct_text():
    from services.catalog.formatting import format_bag_weight

    assert isinstance(format_bag_weight(1500), str)
    assert format_bag_weight(1500) != format_bag_weight(3000)
