from services.dashboard.site_api import get_site


def test_an_unknown_site_raises_lookup_error():
    try:
        get_site({}, "C3")
    except LookupError:
        pass
    else:
        raise AssertionError("expected LookupError for an unknown site")


def test_a_known_site_is_returned():
    assert get_site({"C3": "x"}, "C3") == "x"
