from services.checkout.cart_payload import cart_payload


def test_the_payload_names_the_key_cart_id():
    assert cart_payload("K7", "open") == {"cart_id": "K7", "state": "open"}
