from services.player.artist_api import get_artist


def test_an_unknown_artist_raises_lookup_error():
    try:
        get_artist({}, "C3")
    except LookupError:
        pass
    else:
        raise AssertionError("expected LookupError for an unknown artist")


def test_a_known_artist_is_returned():
    assert get_artist({"C3": "x"}, "C3") == "x"
