from services.dashboard.site_client import site_client_cache_ttl_s


def test_the_client_uses_900():
    assert site_client_cache_ttl_s() == 900
