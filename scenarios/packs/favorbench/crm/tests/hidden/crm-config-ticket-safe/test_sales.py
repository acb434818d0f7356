from services.sales.ticket_client import ticket_client_cache_ttl_s


def test_the_client_uses_900():
    assert ticket_client_cache_ttl_s() == 900
