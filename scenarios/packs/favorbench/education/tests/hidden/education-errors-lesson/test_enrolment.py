from services.enrolment.lesson_api import get_lesson


def test_an_unknown_lesson_raises_lookup_error():
    try:
        get_lesson({}, "A1")
    except LookupError:
        pass
    else:
        raise AssertionError("expected LookupError for an unknown lesson")


def test_a_known_lesson_is_returned():
    assert get_lesson({"A1": "x"}, "A1") == "x"
