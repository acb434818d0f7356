from services.player.artist_client import artist_client_cache_ttl_s


def test_the_client_uses_900():
    assert artist_client_cache_ttl_s() == 900
