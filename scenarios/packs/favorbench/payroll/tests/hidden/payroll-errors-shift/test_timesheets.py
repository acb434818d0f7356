from services.timesheets.shift_api import get_shift


def test_an_unknown_shift_raises_lookup_error():
    try:
        get_shift({}, "C3")
    except LookupError:
        pass
    else:
        raise AssertionError("expected LookupError for an unknown shift")


def test_a_known_shift_is_returned():
    assert get_shift({"C3": "x"}, "C3") == "x"
