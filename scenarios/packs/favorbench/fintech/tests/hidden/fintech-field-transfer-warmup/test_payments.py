from services.payments.transfer_payload import transfer_payload


def test_the_payload_names_the_key_transfer_id():
    assert transfer_payload("K7", "open") == {"transfer_id": "K7", "state": "open"}
