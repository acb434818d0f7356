from services.timesheets.expense_amount_label import expense_amount_label


def test_the_label_reads_EUR_1234_50():
    assert expense_amount_label(123450) == 'EUR 1,234.50'
