from services.dispatch.delivery_api import get_delivery


def test_an_unknown_delivery_raises_lookup_error():
    try:
        get_delivery({}, "C3")
    except LookupError:
        pass
    else:
        raise AssertionError("expected LookupError for an unknown delivery")


def test_a_known_delivery_is_returned():
    assert get_delivery({"C3": "x"}, "C3") == "x"
