from services.checkout.shipment_client import shipment_client_retries


def test_the_client_uses_5():
    assert shipment_client_retries() == 5
