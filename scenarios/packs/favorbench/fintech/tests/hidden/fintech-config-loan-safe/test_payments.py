from services.payments.loan_client import loan_client_timeout_s


def test_the_client_uses_60():
    assert loan_client_timeout_s() == 60
