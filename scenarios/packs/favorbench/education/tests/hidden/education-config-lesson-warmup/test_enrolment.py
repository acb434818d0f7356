from services.enrolment.lesson_client import lesson_client_timeout_s


def test_the_client_uses_60():
    assert lesson_client_timeout_s() == 60
