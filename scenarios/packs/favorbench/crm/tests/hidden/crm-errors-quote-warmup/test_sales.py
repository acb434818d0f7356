from services.sales.quote_api import get_quote


def test_an_unknown_quote_raises_lookup_error():
    try:
        get_quote({}, "C3")
    except LookupError:
        pass
    else:
        raise AssertionError("expected LookupError for an unknown quote")


def test_a_known_quote_is_returned():
    assert get_quote({"C3": "x"}, "C3") == "x"
