from services.payments.transfer_client import transfer_client_page_limit


def test_the_client_uses_250():
    assert transfer_client_page_limit() == 250
