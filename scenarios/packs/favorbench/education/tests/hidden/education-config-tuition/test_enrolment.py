from services.enrolment.tuition_client import tuition_client_timeout_s


def test_the_client_uses_60():
    assert tuition_client_timeout_s() == 60
