"""Tests of services/catalog/settings.py (run them all: python -m services.catalog.tests)."""


def test_bag_timeout_s_is_a_positive_whole_number():
    from services.catalog.settings import setting

    assert isinstance(setting("bag_timeout_s"), int) and setting("bag_timeout_s") > 0


def test_transfer_timeout_s_is_a_positive_whole_number():
    from services.catalog.settings import setting

    assert isinstance(setting("transfer_timeout_s"), int) and setting("transfer_timeout_s") > 0


def test_flight_cache_ttl_s_is_a_positive_whole_number():
    from services.catalog.settings import setting

    assert isinstance(setting("flight_cache_ttl_s"), int) and setting("flight_cache_ttl_s") > 0


def test_hotel_page_limit_is_a_positive_whole_number():
    from services.catalog.settings import setting

    assert isinstance(setting("hotel_page_limit"), int) and setting("hotel_page_limit") > 0


def test_trip_cache_ttl_s_is_a_positive_whole_number():
    from services.catalog.settings import setting

    assert isinstance(setting("trip_cache_ttl_s"), int) and setting("trip_cache_ttl_s") > 0


def test_seat_timeout_s_is_a_positive_whole_number():
    from services.catalog.settings import setting

    assert isinstance(setting("seat_timeout_s"), int) and setting("seat_timeout_s") > 0
