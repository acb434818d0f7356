from services.checkout.order_total_label import order_total_label


def test_the_label_reads_EUR_1234_50():
    assert order_total_label(123450) == 'EUR 1,234.50'
