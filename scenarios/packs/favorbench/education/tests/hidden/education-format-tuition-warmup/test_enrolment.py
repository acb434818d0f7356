from services.enrolment.tuition_fee_label import tuition_fee_label


def test_the_label_reads_EUR_1234_50():
    assert tuition_fee_label(123450) == 'EUR 1,234.50'
