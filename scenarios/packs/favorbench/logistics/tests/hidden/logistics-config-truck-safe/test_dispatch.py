from services.dispatch.truck_client import truck_client_cache_ttl_s


def test_the_client_uses_900():
    assert truck_client_cache_ttl_s() == 900
