from services.enrolment.tuition_payload import tuition_payload


def test_the_payload_names_the_key_tuition_id():
    assert tuition_payload("K7", "open") == {"tuition_id": "K7", "state": "open"}
