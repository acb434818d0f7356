from services.payments.card_api import get_card


def test_an_unknown_card_raises_lookup_error():
    try:
        get_card({}, "K9")
    except LookupError:
        pass
    else:
        raise AssertionError("expected LookupError for an unknown card")


def test_a_known_card_is_returned():
    assert get_card({"K9": "x"}, "K9") == "x"
