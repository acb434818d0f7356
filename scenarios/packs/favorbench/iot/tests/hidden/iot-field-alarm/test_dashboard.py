from services.dashboard.alarm_payload import alarm_payload


def test_the_payload_names_the_key_alarm_id():
    assert alarm_payload("K7", "active") == {"alarm_id": "K7", "state": "active"}
