from services.enrolment.assignment_payload import assignment_payload


def test_the_payload_names_the_key_assignment_id():
    assert assignment_payload("K7", "open") == {"assignment_id": "K7", "state": "open"}
