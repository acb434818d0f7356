from services.bookings.flight_client import flight_client_cache_ttl_s


def test_the_client_uses_900():
    assert flight_client_cache_ttl_s() == 900
