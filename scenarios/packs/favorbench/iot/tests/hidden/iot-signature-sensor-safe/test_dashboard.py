from services.dashboard.sensor_quote import sensor_quote


def test_quotes_use_the_tier_rate():
    assert sensor_quote(4, "express") == 32
    assert sensor_quote(2, "standard") == 6
