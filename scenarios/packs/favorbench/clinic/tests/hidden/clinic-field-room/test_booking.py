from services.booking.room_payload import room_payload


def test_the_payload_names_the_key_room_id():
    assert room_payload("K7", "confirmed") == {"room_id": "K7", "state": "confirmed"}
