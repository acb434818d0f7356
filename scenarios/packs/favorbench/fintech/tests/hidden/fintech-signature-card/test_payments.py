from services.payments.card_quote import card_quote


def test_quotes_use_the_tier_rate():
    assert card_quote(4, "express") == 48
    assert card_quote(2, "standard") == 10
