from services.player.album_quote import album_quote


def test_quotes_use_the_tier_rate():
    assert album_quote(4, "express") == 48
    assert album_quote(2, "standard") == 10
