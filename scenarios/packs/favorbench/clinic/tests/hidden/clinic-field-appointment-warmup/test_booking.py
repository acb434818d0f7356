from services.booking.appointment_payload import appointment_payload


def test_the_payload_names_the_key_appointment_id():
    assert appointment_payload("K7", "active") == {"appointment_id": "K7", "state": "active"}
