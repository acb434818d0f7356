from services.checkout.coupon_api import get_coupon


def test_an_unknown_coupon_raises_lookup_error():
    try:
        get_coupon({}, "B7")
    except LookupError:
        pass
    else:
        raise AssertionError("expected LookupError for an unknown coupon")


def test_a_known_coupon_is_returned():
    assert get_coupon({"B7": "x"}, "B7") == "x"
