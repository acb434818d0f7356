from services.enrolment.tuition_api import get_tuition


def test_an_unknown_tuition_raises_lookup_error():
    try:
        get_tuition({}, "B7")
    except LookupError:
        pass
    else:
        raise AssertionError("expected LookupError for an unknown tuition")


def test_a_known_tuition_is_returned():
    assert get_tuition({"B7": "x"}, "B7") == "x"
