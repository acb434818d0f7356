from services.bookings.seat_api import get_seat


def test_an_unknown_seat_raises_lookup_error():
    try:
        get_seat({}, "A1")
    except LookupError:
        pass
    else:
        raise AssertionError("expected LookupError for an unknown seat")


def test_a_known_seat_is_returned():
    assert get_seat({"A1": "x"}, "A1") == "x"
