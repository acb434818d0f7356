from services.checkout.cart_api import get_cart


def test_an_unknown_cart_raises_lookup_error():
    try:
        get_cart({}, "A1")
    except LookupError:
        pass
    else:
        raise AssertionError("expected LookupError for an unknown cart")


def test_a_known_cart_is_returned():
    assert get_cart({"A1": "x"}, "A1") == "x"
