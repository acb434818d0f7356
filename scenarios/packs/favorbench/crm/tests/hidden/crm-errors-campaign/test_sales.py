from services.sales.campaign_api import get_campaign


def test_an_unknown_campaign_raises_lookup_error():
    try:
        get_campaign({}, "C3")
    except LookupError:
        pass
    else:
        raise AssertionError("expected LookupError for an unknown campaign")


def test_a_known_campaign_is_returned():
    assert get_campaign({"C3": "x"}, "C3") == "x"
