from services.booking.visit_fee_label import visit_fee_label


def test_the_label_reads_EUR_1234_50():
    assert visit_fee_label(123450) == 'EUR 1,234.50'
