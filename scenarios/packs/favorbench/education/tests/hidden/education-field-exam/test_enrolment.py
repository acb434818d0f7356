from services.enrolment.exam_payload import exam_payload


def test_the_payload_names_the_key_exam_id():
    assert exam_payload("K7", "open") == {"exam_id": "K7", "state": "open"}
