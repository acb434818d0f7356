from services.dispatch.pallet_api import get_pallet


def test_an_unknown_pallet_raises_lookup_error():
    try:
        get_pallet({}, "A1")
    except LookupError:
        pass
    else:
        raise AssertionError("expected LookupError for an unknown pallet")


def test_a_known_pallet_is_returned():
    assert get_pallet({"A1": "x"}, "A1") == "x"
