from services.dashboard.device_quote import device_quote


def test_quotes_use_the_tier_rate():
    assert device_quote(4, "express") == 32
    assert device_quote(2, "standard") == 6
