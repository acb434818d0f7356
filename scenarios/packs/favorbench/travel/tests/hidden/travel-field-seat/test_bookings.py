from services.bookings.seat_payload import seat_payload


def test_the_payload_names_the_key_seat_id():
    assert seat_payload("K7", "confirmed") == {"seat_id": "K7", "state": "confirmed"}
