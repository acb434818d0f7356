from services.dispatch.truck_api import get_truck


def test_an_unknown_truck_raises_lookup_error():
    try:
        get_truck({}, "B7")
    except LookupError:
        pass
    else:
        raise AssertionError("expected LookupError for an unknown truck")


def test_a_known_truck_is_returned():
    assert get_truck({"B7": "x"}, "B7") == "x"
