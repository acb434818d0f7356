from services.payments.dispute_window_label import dispute_window_label


def test_the_label_reads_2_05():
    assert dispute_window_label(125) == '2:05'
