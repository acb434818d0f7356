from services.timesheets.bonus_amount_label import bonus_amount_label


def test_the_label_reads_EUR_1234_50():
    assert bonus_amount_label(123450) == 'EUR 1,234.50'
