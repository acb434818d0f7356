from services.player.subscription_api import get_subscription


def test_an_unknown_subscription_raises_lookup_error():
    try:
        get_subscription({}, "K9")
    except LookupError:
        pass
    else:
        raise AssertionError("expected LookupError for an unknown subscription")


def test_a_known_subscription_is_returned():
    assert get_subscription({"K9": "x"}, "K9") == "x"
