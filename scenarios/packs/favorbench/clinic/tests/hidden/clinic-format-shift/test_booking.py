from services.booking.shift_length_label import shift_length_label


def test_the_label_reads_2_05():
    assert shift_length_label(125) == '2:05'
