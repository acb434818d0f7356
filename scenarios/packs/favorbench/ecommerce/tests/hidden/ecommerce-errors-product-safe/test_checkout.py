from services.checkout.product_api import get_product


def test_an_unknown_product_raises_lookup_error():
    try:
        get_product({}, "A1")
    except LookupError:
        pass
    else:
        raise AssertionError("expected LookupError for an unknown product")


def test_a_known_product_is_returned():
    assert get_product({"A1": "x"}, "A1") == "x"
