from services.payments.dispute_api import get_dispute


def test_an_unknown_dispute_raises_lookup_error():
    try:
        get_dispute({}, "C3")
    except LookupError:
        pass
    else:
        raise AssertionError("expected LookupError for an unknown dispute")


def test_a_known_dispute_is_returned():
    assert get_dispute({"C3": "x"}, "C3") == "x"
