from services.enrolment.exam_client import exam_client_cache_ttl_s


def test_the_client_uses_900():
    assert exam_client_cache_ttl_s() == 900
