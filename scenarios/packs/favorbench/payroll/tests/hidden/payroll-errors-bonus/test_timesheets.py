from services.timesheets.bonus_api import get_bonus


def test_an_unknown_bonus_raises_lookup_error():
    try:
        get_bonus({}, "A1")
    except LookupError:
        pass
    else:
        raise AssertionError("expected LookupError for an unknown bonus")


def test_a_known_bonus_is_returned():
    assert get_bonus({"A1": "x"}, "A1") == "x"
