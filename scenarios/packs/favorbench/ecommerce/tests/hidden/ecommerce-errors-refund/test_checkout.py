from services.checkout.refund_api import get_refund


def test_an_unknown_refund_raises_lookup_error():
    try:
        get_refund({}, "K9")
    except LookupError:
        pass
    else:
        raise AssertionError("expected LookupError for an unknown refund")


def test_a_known_refund_is_returned():
    assert get_refund({"K9": "x"}, "K9") == "x"
