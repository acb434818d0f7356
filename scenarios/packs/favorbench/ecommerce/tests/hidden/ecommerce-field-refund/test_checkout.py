from services.checkout.refund_payload import refund_payload


def test_the_payload_names_the_key_refund_id():
    assert refund_payload("K7", "active") == {"refund_id": "K7", "state": "active"}
