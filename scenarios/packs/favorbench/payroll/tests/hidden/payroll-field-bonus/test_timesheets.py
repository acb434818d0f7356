from services.timesheets.bonus_payload import bonus_payload


def test_the_payload_names_the_key_bonus_id():
    assert bonus_payload("K7", "pending") == {"bonus_id": "K7", "state": "pending"}
