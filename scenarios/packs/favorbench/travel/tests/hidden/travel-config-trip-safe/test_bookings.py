from services.bookings.trip_client import trip_client_cache_ttl_s


def test_the_client_uses_900():
    assert trip_client_cache_ttl_s() == 900
