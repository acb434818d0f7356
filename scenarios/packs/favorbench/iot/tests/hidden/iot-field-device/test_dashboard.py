from services.dashboard.device_payload import device_payload


def test_the_payload_names_the_key_device_id():
    assert device_payload("K7", "open") == {"device_id": "K7", "state": "open"}
