from services.enrolment.course_api import get_course


def test_an_unknown_course_raises_lookup_error():
    try:
        get_course({}, "C3")
    except LookupError:
        pass
    else:
        raise AssertionError("expected LookupError for an unknown course")


def test_a_known_course_is_returned():
    assert get_course({"C3": "x"}, "C3") == "x"
