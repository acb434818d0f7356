from services.booking.referral_api import get_referral


def test_an_unknown_referral_raises_lookup_error():
    try:
        get_referral({}, "A1")
    except LookupError:
        pass
    else:
        raise AssertionError("expected LookupError for an unknown referral")


def test_a_known_referral_is_returned():
    assert get_referral({"A1": "x"}, "A1") == "x"
