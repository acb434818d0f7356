from services.payments.payout_client import payout_client_retries


def test_the_client_uses_5():
    assert payout_client_retries() == 5
