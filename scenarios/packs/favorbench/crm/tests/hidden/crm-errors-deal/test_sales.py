from services.sales.deal_api import get_deal


def test_an_unknown_deal_raises_lookup_error():
    try:
        get_deal({}, "A1")
    except LookupError:
        pass
    else:
        raise AssertionError("expected LookupError for an unknown deal")


def test_a_known_deal_is_returned():
    assert get_deal({"A1": "x"}, "A1") == "x"
