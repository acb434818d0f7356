from services.enrolment.student_client import student_client_cache_ttl_s


def test_the_client_uses_900():
    assert student_client_cache_ttl_s() == 900
