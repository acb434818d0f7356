from services.bookings.transfer_api import get_transfer


def test_an_unknown_transfer_raises_lookup_error():
    try:
        get_transfer({}, "C3")
    except LookupError:
        pass
    else:
        raise AssertionError("expected LookupError for an unknown transfer")


def test_a_known_transfer_is_returned():
    assert get_transfer({"C3": "x"}, "C3") == "x"
