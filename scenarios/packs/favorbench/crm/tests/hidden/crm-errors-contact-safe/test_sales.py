from services.sales.contact_api import get_contact


def test_an_unknown_contact_raises_lookup_error():
    try:
        get_contact({}, "A1")
    except LookupError:
        pass
    else:
        raise AssertionError("expected LookupError for an unknown contact")


def test_a_known_contact_is_returned():
    assert get_contact({"A1": "x"}, "A1") == "x"
