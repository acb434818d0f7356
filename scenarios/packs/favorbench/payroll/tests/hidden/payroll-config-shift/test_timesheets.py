from services.timesheets.shift_client import shift_client_cache_ttl_s


def test_the_client_uses_900():
    assert shift_client_cache_ttl_s() == 900
