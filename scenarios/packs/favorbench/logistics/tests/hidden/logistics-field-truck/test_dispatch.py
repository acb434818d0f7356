from services.dispatch.truck_payload import truck_payload


def test_the_payload_names_the_key_truck_id():
    assert truck_payload("K7", "confirmed") == {"truck_id": "K7", "state": "confirmed"}
