from services.bookings.transfer_payload import transfer_payload


def test_the_payload_names_the_key_transfer_id():
    assert transfer_payload("K7", "active") == {"transfer_id": "K7", "state": "active"}
