from services.player.album_api import get_album


def test_an_unknown_album_raises_lookup_error():
    try:
        get_album({}, "K9")
    except LookupError:
        pass
    else:
        raise AssertionError("expected LookupError for an unknown album")


def test_a_known_album_is_returned():
    assert get_album({"K9": "x"}, "K9") == "x"
