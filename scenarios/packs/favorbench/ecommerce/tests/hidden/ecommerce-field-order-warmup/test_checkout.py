from services.checkout.order_payload import order_payload


def test_the_payload_names_the_key_order_id():
    assert order_payload("K7", "confirmed") == {"order_id": "K7", "state": "confirmed"}
