from services.enrolment.lesson_payload import lesson_payload


def test_the_payload_names_the_key_lesson_id():
    assert lesson_payload("K7", "open") == {"lesson_id": "K7", "state": "open"}
