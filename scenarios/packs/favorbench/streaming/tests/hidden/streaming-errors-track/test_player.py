from services.player.track_api import get_track


def test_an_unknown_track_raises_lookup_error():
    try:
        get_track({}, "B7")
    except LookupError:
        pass
    else:
        raise AssertionError("expected LookupError for an unknown track")


def test_a_known_track_is_returned():
    assert get_track({"B7": "x"}, "B7") == "x"
