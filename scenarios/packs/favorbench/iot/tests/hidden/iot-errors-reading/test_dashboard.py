from services.dashboard.reading_api import get_reading


def test_an_unknown_reading_raises_lookup_error():
    try:
        get_reading({}, "A1")
    except LookupError:
        pass
    else:
        raise AssertionError("expected LookupError for an unknown reading")


def test_a_known_reading_is_returned():
    assert get_reading({"A1": "x"}, "A1") == "x"
