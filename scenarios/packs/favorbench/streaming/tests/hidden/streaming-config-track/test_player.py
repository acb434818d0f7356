from services.player.track_client import track_client_cache_ttl_s


def test_the_client_uses_900():
    assert track_client_cache_ttl_s() == 900
