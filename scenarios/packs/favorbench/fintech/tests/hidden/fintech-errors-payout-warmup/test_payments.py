from services.payments.payout_api import get_payout


def test_an_unknown_payout_raises_lookup_error():
    try:
        get_payout({}, "B7")
    except LookupError:
        pass
    else:
        raise AssertionError("expected LookupError for an unknown payout")


def test_a_known_payout_is_returned():
    assert get_payout({"B7": "x"}, "B7") == "x"
