from services.booking.visit_api import get_visit


def test_an_unknown_visit_raises_lookup_error():
    try:
        get_visit({}, "A1")
    except LookupError:
        pass
    else:
        raise AssertionError("expected LookupError for an unknown visit")


def test_a_known_visit_is_returned():
    assert get_visit({"A1": "x"}, "A1") == "x"
