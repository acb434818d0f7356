from services.dashboard.sensor_api import get_sensor


def test_an_unknown_sensor_raises_lookup_error():
    try:
        get_sensor({}, "B7")
    except LookupError:
        pass
    else:
        raise AssertionError("expected LookupError for an unknown sensor")


def test_a_known_sensor_is_returned():
    assert get_sensor({"B7": "x"}, "B7") == "x"
