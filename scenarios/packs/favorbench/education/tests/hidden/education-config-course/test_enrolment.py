from services.enrolment.course_client import course_client_retries


def test_the_client_uses_5():
    assert course_client_retries() == 5
