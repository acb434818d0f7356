from services.enrolment.assignment_client import assignment_client_cache_ttl_s


def test_the_client_uses_900():
    assert assignment_client_cache_ttl_s() == 900
