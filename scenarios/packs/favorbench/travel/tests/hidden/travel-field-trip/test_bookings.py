from services.bookings.trip_payload import trip_payload


def test_the_payload_names_the_key_trip_id():
    assert trip_payload("K7", "active") == {"trip_id": "K7", "state": "active"}
