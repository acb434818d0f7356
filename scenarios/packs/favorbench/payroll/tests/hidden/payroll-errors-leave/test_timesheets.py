from services.timesheets.leave_api import get_leave


def test_an_unknown_leave_raises_lookup_error():
    try:
        get_leave({}, "K9")
    except LookupError:
        pass
    else:
        raise AssertionError("expected LookupError for an unknown leave")


def test_a_known_leave_is_returned():
    assert get_leave({"K9": "x"}, "K9") == "x"
