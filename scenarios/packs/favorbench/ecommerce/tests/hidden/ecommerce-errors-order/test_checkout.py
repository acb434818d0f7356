from services.checkout.order_api import get_order


def test_an_unknown_order_raises_lookup_error():
    try:
        get_order({}, "B7")
    except LookupError:
        pass
    else:
        raise AssertionError("expected LookupError for an unknown order")


def test_a_known_order_is_returned():
    assert get_order({"B7": "x"}, "B7") == "x"
