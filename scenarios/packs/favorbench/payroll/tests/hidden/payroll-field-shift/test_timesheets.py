from services.timesheets.shift_payload import shift_payload


def test_the_payload_names_the_key_shift_id():
    assert shift_payload("K7", "pending") == {"shift_id": "K7", "state": "pending"}
