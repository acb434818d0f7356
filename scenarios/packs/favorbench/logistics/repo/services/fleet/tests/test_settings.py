"""Tests of services/fleet/settings.py (run them all: python -m services.fleet.tests)."""


def test_pallet_cache_ttl_s_is_a_positive_whole_number():
    from services.fleet.settings import setting

    assert isinstance(setting("pallet_cache_ttl_s"), int) and setting("pallet_cache_ttl_s") > 0


def test_delivery_timeout_s_is_a_positive_whole_number():
    from services.fleet.settings import setting

    assert isinstance(setting("delivery_timeout_s"), int) and setting("delivery_timeout_s") > 0


def test_parcel_timeout_s_is_a_positive_whole_number():
    from services.fleet.settings import setting

    assert isinstance(setting("parcel_timeout_s"), int) and setting("parcel_timeout_s") > 0


def test_route_cache_ttl_s_is_a_positive_whole_number():
    from services.fleet.settings import setting

    assert isinstance(setting("route_cache_ttl_s"), int) and setting("route_cache_ttl_s") > 0


def test_truck_cache_ttl_s_is_a_positive_whole_number():
    from services.fleet.settings import setting

    assert isinstance(setting("truck_cache_ttl_s"), int) and setting("truck_cache_ttl_s") > 0


def test_driver_retries_is_a_positive_whole_number():
    from services.fleet.settings import setting

    assert isinstance(setting("driver_retries"), int) and setting("driver_retries") > 0
