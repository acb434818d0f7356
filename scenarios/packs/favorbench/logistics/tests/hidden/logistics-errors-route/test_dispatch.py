from services.dispatch.route_api import get_route


def test_an_unknown_route_raises_lookup_error():
    try:
        get_route({}, "C3")
    except LookupError:
        pass
    else:
        raise AssertionError("expected LookupError for an unknown route")


def test_a_known_route_is_returned():
    assert get_route({"C3": "x"}, "C3") == "x"
