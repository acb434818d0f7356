from services.dispatch.pallet_payload import pallet_payload


def test_the_payload_names_the_key_pallet_id():
    assert pallet_payload("K7", "pending") == {"pallet_id": "K7", "state": "pending"}
