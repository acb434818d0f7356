from services.payments.card_limit_label import card_limit_label


def test_the_label_reads_EUR_1234_50():
    assert card_limit_label(123450) == 'EUR 1,234.50'
