from services.payments.dispute_client import dispute_client_page_limit


def test_the_client_uses_250():
    assert dispute_client_page_limit() == 250
