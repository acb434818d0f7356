from services.enrolment.assignment_api import get_assignment


def test_an_unknown_assignment_raises_lookup_error():
    try:
        get_assignment({}, "C3")
    except LookupError:
        pass
    else:
        raise AssertionError("expected LookupError for an unknown assignment")


def test_a_known_assignment_is_returned():
    assert get_assignment({"C3": "x"}, "C3") == "x"
