from services.enrolment.exam_api import get_exam


def test_an_unknown_exam_raises_lookup_error():
    try:
        get_exam({}, "K9")
    except LookupError:
        pass
    else:
        raise AssertionError("expected LookupError for an unknown exam")


def test_a_known_exam_is_returned():
    assert get_exam({"K9": "x"}, "K9") == "x"
