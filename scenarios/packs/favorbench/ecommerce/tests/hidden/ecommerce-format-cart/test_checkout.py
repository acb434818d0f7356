from services.checkout.cart_value_label import cart_value_label


def test_the_label_reads_EUR_1234_50():
    assert cart_value_label(123450) == 'EUR 1,234.50'
