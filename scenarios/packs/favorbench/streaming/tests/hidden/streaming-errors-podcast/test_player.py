from services.player.podcast_api import get_podcast


def test_an_unknown_podcast_raises_lookup_error():
    try:
        get_podcast({}, "K9")
    except LookupError:
        pass
    else:
        raise AssertionError("expected LookupError for an unknown podcast")


def test_a_known_podcast_is_returned():
    assert get_podcast({"K9": "x"}, "K9") == "x"
