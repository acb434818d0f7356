from services.enrolment.student_api import get_student


def test_an_unknown_student_raises_lookup_error():
    try:
        get_student({}, "B7")
    except LookupError:
        pass
    else:
        raise AssertionError("expected LookupError for an unknown student")


def test_a_known_student_is_returned():
    assert get_student({"B7": "x"}, "B7") == "x"
