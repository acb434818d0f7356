from services.bookings.hotel_payload import hotel_payload


def test_the_payload_names_the_key_hotel_id():
    assert hotel_payload("K7", "active") == {"hotel_id": "K7", "state": "active"}
