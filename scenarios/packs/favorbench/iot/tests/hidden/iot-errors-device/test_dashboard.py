from services.dashboard.device_api import get_device


def test_an_unknown_device_raises_lookup_error():
    try:
        get_device({}, "B7")
    except LookupError:
        pass
    else:
        raise AssertionError("expected LookupError for an unknown device")


def test_a_known_device_is_returned():
    assert get_device({"B7": "x"}, "B7") == "x"
