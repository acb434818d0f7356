from services.booking.room_api import get_room


def test_an_unknown_room_raises_lookup_error():
    try:
        get_room({}, "B7")
    except LookupError:
        pass
    else:
        raise AssertionError("expected LookupError for an unknown room")


def test_a_known_room_is_returned():
    assert get_room({"B7": "x"}, "B7") == "x"
