from services.timesheets.raise_payload import raise_payload


def test_the_payload_names_the_key_raise_id():
    assert raise_payload("K7", "pending") == {"raise_id": "K7", "state": "pending"}
