from services.bookings.bag_payload import bag_payload


def test_the_payload_names_the_key_bag_id():
    assert bag_payload("K7", "pending") == {"bag_id": "K7", "state": "pending"}
