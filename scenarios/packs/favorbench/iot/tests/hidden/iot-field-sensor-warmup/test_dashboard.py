from services.dashboard.sensor_payload import sensor_payload


def test_the_payload_names_the_key_sensor_id():
    assert sensor_payload("K7", "confirmed") == {"sensor_id": "K7", "state": "confirmed"}
