from services.dashboard.alarm_api import get_alarm


def test_an_unknown_alarm_raises_lookup_error():
    try:
        get_alarm({}, "K9")
    except LookupError:
        pass
    else:
        raise AssertionError("expected LookupError for an unknown alarm")


def test_a_known_alarm_is_returned():
    assert get_alarm({"K9": "x"}, "K9") == "x"
