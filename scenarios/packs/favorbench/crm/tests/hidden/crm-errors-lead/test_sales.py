from services.sales.lead_api import get_lead


def test_an_unknown_lead_raises_lookup_error():
    try:
        get_lead({}, "A1")
    except LookupError:
        pass
    else:
        raise AssertionError("expected LookupError for an unknown lead")


def test_a_known_lead_is_returned():
    assert get_lead({"A1": "x"}, "A1") == "x"
