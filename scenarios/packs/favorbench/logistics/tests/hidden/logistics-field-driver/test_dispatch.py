from services.dispatch.driver_payload import driver_payload


def test_the_payload_names_the_key_driver_id():
    assert driver_payload("K7", "confirmed") == {"driver_id": "K7", "state": "confirmed"}
