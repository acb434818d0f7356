from services.player.subscription_quote import subscription_quote


def test_quotes_use_the_tier_rate():
    assert subscription_quote(4, "express") == 48
    assert subscription_quote(2, "standard") == 10
