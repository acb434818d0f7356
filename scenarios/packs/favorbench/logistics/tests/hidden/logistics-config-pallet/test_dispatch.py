from services.dispatch.pallet_client import pallet_client_cache_ttl_s


def test_the_client_uses_900():
    assert pallet_client_cache_ttl_s() == 900
