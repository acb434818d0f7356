from services.dispatch.pallet_quote import pallet_quote


def test_quotes_use_the_tier_rate():
    assert pallet_quote(4, "express") == 32
    assert pallet_quote(2, "standard") == 6
