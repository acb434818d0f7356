from services.bookings.trip_api import get_trip


def test_an_unknown_trip_raises_lookup_error():
    try:
        get_trip({}, "C3")
    except LookupError:
        pass
    else:
        raise AssertionError("expected LookupError for an unknown trip")


def test_a_known_trip_is_returned():
    assert get_trip({"C3": "x"}, "C3") == "x"
