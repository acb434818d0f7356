from services.timesheets.leave_payload import leave_payload


def test_the_payload_names_the_key_leave_id():
    assert leave_payload("K7", "confirmed") == {"leave_id": "K7", "state": "confirmed"}
