from services.payments.card_client import card_client_retries


def test_the_client_uses_5():
    assert card_client_retries() == 5
