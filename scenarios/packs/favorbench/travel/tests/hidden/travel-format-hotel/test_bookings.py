from services.bookings.hotel_rate_label import hotel_rate_label


def test_the_label_reads_EUR_1234_50():
    assert hotel_rate_label(123450) == 'EUR 1,234.50'
