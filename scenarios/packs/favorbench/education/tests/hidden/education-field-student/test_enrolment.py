from services.enrolment.student_payload import student_payload


def test_the_payload_names_the_key_student_id():
    assert student_payload("K7", "pending") == {"student_id": "K7", "state": "pending"}
