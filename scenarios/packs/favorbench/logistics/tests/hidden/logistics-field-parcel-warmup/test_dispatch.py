from services.dispatch.parcel_payload import parcel_payload


def test_the_payload_names_the_key_parcel_id():
    assert parcel_payload("K7", "active") == {"parcel_id": "K7", "state": "active"}
