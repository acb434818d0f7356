from services.payments.loan_rate_label import loan_rate_label


def test_the_label_reads_12_5pct():
    assert loan_rate_label(0.125) == '12.5%'
