from services.dashboard.alarm_delay_label import alarm_delay_label


def test_the_label_reads_2_05():
    assert alarm_delay_label(125) == '2:05'
