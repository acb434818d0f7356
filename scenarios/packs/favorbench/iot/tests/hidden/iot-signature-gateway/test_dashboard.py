from services.dashboard.gateway_quote import gateway_quote


def test_quotes_use_the_tier_rate():
    assert gateway_quote(4, "express") == 36
    assert gateway_quote(2, "standard") == 8
