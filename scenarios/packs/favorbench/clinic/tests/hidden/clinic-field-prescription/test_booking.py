from services.booking.prescription_payload import prescription_payload


def test_the_payload_names_the_key_prescription_id():
    assert prescription_payload("K7", "open") == {"prescription_id": "K7", "state": "open"}
