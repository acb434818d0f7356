from services.dashboard.reading_interval_label import reading_interval_label


def test_the_label_reads_2_05():
    assert reading_interval_label(125) == '2:05'
