from services.payments.account_client import account_client_retries


def test_the_client_uses_5():
    assert account_client_retries() == 5
