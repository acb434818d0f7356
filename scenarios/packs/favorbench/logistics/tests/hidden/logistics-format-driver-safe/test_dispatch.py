from services.dispatch.driver_shift_label import driver_shift_label


def test_the_label_reads_2_05():
    assert driver_shift_label(125) == '2:05'
