from services.timesheets.raise_api import get_raise


def test_an_unknown_raise_raises_lookup_error():
    try:
        get_raise({}, "C3")
    except LookupError:
        pass
    else:
        raise AssertionError("expected LookupError for an unknown raise")


def test_a_known_raise_is_returned():
    assert get_raise({"C3": "x"}, "C3") == "x"
