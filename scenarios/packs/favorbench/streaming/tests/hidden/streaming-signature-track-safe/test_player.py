from services.player.track_quote import track_quote


def test_quotes_use_the_tier_rate():
    assert track_quote(4, "express") == 48
    assert track_quote(2, "standard") == 10
