from services.dispatch.route_client import route_client_cache_ttl_s


def test_the_client_uses_900():
    assert route_client_cache_ttl_s() == 900
