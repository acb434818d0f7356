from services.bookings.bag_api import get_bag


def test_an_unknown_bag_raises_lookup_error():
    try:
        get_bag({}, "K9")
    except LookupError:
        pass
    else:
        raise AssertionError("expected LookupError for an unknown bag")


def test_a_known_bag_is_returned():
    assert get_bag({"K9": "x"}, "K9") == "x"
