from services.player.artist_quote import artist_quote


def test_quotes_use_the_tier_rate():
    assert artist_quote(4, "express") == 28
    assert artist_quote(2, "standard") == 4
