from services.checkout.shipment_quote import shipment_quote


def test_quotes_use_the_tier_rate():
    assert shipment_quote(4, "express") == 28
    assert shipment_quote(2, "standard") == 4
