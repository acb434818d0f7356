from services.checkout.product_payload import product_payload


def test_the_payload_names_the_key_product_id():
    assert product_payload("K7", "confirmed") == {"product_id": "K7", "state": "confirmed"}
