from services.booking.room_occupancy_label import room_occupancy_label


def test_the_label_reads_12_5pct():
    assert room_occupancy_label(0.125) == '12.5%'
