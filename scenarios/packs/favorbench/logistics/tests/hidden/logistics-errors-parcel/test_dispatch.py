from services.dispatch.parcel_api import get_parcel


def test_an_unknown_parcel_raises_lookup_error():
    try:
        get_parcel({}, "B7")
    except LookupError:
        pass
    else:
        raise AssertionError("expected LookupError for an unknown parcel")


def test_a_known_parcel_is_returned():
    assert get_parcel({"B7": "x"}, "B7") == "x"
