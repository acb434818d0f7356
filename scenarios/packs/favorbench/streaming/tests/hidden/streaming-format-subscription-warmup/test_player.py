from services.player.subscription_price_label import subscription_price_label


def test_the_label_reads_EUR_1234_50():
    assert subscription_price_label(123450) == 'EUR 1,234.50'
