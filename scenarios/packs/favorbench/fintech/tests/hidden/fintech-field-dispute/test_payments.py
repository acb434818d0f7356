from services.payments.dispute_payload import dispute_payload


def test_the_payload_names_the_key_dispute_id():
    assert dispute_payload("K7", "pending") == {"dispute_id": "K7", "state": "pending"}
