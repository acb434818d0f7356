from services.dispatch.driver_api import get_driver


def test_an_unknown_driver_raises_lookup_error():
    try:
        get_driver({}, "C3")
    except LookupError:
        pass
    else:
        raise AssertionError("expected LookupError for an unknown driver")


def test_a_known_driver_is_returned():
    assert get_driver({"C3": "x"}, "C3") == "x"
