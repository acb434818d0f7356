from services.player.playlist_api import get_playlist


def test_an_unknown_playlist_raises_lookup_error():
    try:
        get_playlist({}, "A1")
    except LookupError:
        pass
    else:
        raise AssertionError("expected LookupError for an unknown playlist")


def test_a_known_playlist_is_returned():
    assert get_playlist({"A1": "x"}, "A1") == "x"
