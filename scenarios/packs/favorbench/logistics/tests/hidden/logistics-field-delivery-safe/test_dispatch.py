from services.dispatch.delivery_payload import delivery_payload


def test_the_payload_names_the_key_delivery_id():
    assert delivery_payload("K7", "open") == {"delivery_id": "K7", "state": "open"}
