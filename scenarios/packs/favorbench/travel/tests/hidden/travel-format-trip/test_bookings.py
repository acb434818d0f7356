from services.bookings.trip_length_label import trip_length_label


def test_the_label_reads_2_05():
    assert trip_length_label(125) == '2:05'
