from services.bookings.hotel_api import get_hotel


def test_an_unknown_hotel_raises_lookup_error():
    try:
        get_hotel({}, "B7")
    except LookupError:
        pass
    else:
        raise AssertionError("expected LookupError for an unknown hotel")


def test_a_known_hotel_is_returned():
    assert get_hotel({"B7": "x"}, "B7") == "x"
