from services.payments.account_balance_label import account_balance_label


def test_the_label_reads_EUR_1234_50():
    assert account_balance_label(123450) == 'EUR 1,234.50'
