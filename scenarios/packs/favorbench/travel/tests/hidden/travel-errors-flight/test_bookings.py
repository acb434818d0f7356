from services.bookings.flight_api import get_flight


def test_an_unknown_flight_raises_lookup_error():
    try:
        get_flight({}, "B7")
    except LookupError:
        pass
    else:
        raise AssertionError("expected LookupError for an unknown flight")


def test_a_known_flight_is_returned():
    assert get_flight({"B7": "x"}, "B7") == "x"
