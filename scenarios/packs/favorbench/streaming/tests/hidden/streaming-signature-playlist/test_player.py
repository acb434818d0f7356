from services.player.playlist_quote import playlist_quote


def test_quotes_use_the_tier_rate():
    assert playlist_quote(4, "express") == 48
    assert playlist_quote(2, "standard") == 10
