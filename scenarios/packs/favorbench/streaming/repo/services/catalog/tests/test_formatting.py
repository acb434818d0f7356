"""Tests of services/catalog/formatting.py (run them all: python -m services.catalog.tests)."""


def test_format_artist_share_gives_distinct_text():
    from services.catalog.formatting import format_artist_share

    assert isinstance(format_artist_share(0.125), str)
    assert format_artist_share(0.125) != format_artist_share(0.25)


def test_format_track_length_gives_distinct_text():
    from services.catalog.formatting import format_track_length

    assert isinstance(format_track_length(125), str)
    assert format_track_length(125) != format_track_length(250)


def test_format_album_price_gives_distinct_text():
    from services.catalog.formatting import format_album_price

    assert isinstance(format_album_price(123450), str)
    assert format_album_price(123450) != format_album_price(246900)


def test_format_playlist_length_gives_distinct_text():
    from services.catalog.formatting import format_playlist_length

    assert isinstance(format_playlist_length(125), str)
    assert format_playlist_length(125) != format_playlist_length(250)


def test_format_podcast_length_gives_distinct_text():
    from services.catalog.formatting import format_podcast_length

    assert isinstance(format_podcast_length(125), str)
    assert format_podcast_length(125) != format_podcast_length(250)


def test_format_subscription_price_gives_distinct_text():
    from services.catalog.formatting import format_subscription_price

    assert isinstance(format_subscription_price(123450), str)
    assert format_subscription_price(123450) != format_subscription_price(246900)
