from services.booking.appointment_length_label import appointment_length_label


def test_the_label_reads_2_05():
    assert appointment_length_label(125) == '2:05'
