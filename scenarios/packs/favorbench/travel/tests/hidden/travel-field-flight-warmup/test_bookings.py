from services.bookings.flight_payload import flight_payload


def test_the_payload_names_the_key_flight_id():
    assert flight_payload("K7", "active") == {"flight_id": "K7", "state": "active"}
