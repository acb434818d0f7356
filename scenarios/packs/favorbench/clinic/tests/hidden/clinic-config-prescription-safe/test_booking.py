from services.booking.prescription_client import prescription_client_cache_ttl_s


def test_the_client_uses_900():
    assert prescription_client_cache_ttl_s() == 900
