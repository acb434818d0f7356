from services.enrolment.course_payload import course_payload


def test_the_payload_names_the_key_course_id():
    assert course_payload("K7", "confirmed") == {"course_id": "K7", "state": "confirmed"}
