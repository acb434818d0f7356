from services.dashboard.gateway_api import get_gateway


def test_an_unknown_gateway_raises_lookup_error():
    try:
        get_gateway({}, "C3")
    except LookupError:
        pass
    else:
        raise AssertionError("expected LookupError for an unknown gateway")


def test_a_known_gateway_is_returned():
    assert get_gateway({"C3": "x"}, "C3") == "x"
