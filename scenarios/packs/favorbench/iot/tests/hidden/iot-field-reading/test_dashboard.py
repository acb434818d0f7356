from services.dashboard.reading_payload import reading_payload


def test_the_payload_names_the_key_reading_id():
    assert reading_payload("K7", "active") == {"reading_id": "K7", "state": "active"}
