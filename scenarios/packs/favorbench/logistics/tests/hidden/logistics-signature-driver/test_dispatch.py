from services.dispatch.driver_quote import driver_quote


def test_quotes_use_the_tier_rate():
    assert driver_quote(4, "express") == 32
    assert driver_quote(2, "standard") == 6
