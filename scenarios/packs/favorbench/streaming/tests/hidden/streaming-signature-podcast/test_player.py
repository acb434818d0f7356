from services.player.podcast_quote import podcast_quote


def test_quotes_use_the_tier_rate():
    assert podcast_quote(4, "express") == 36
    assert podcast_quote(2, "standard") == 8
