from services.dashboard.gateway_client import gateway_client_cache_ttl_s


def test_the_client_uses_900():
    assert gateway_client_cache_ttl_s() == 900
